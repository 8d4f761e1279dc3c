package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.etcdoperator.api.schema.SchemaPatch;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Objects;

@SchemaCustomizer(value = SchemaPatch.class, input = """
    properties:
      phase: {enum: ["Pending", "Running", "Complete", "Failed"]}
      startedAt: {format: "date-time"}
      completedAt: {format: "date-time"}
      members: {"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]}
    """)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Progress and result of the run, written by the operator.")
public class EtcdDefragStatus {

    public static final String PHASE_PENDING = "Pending";
    public static final String PHASE_RUNNING = "Running";
    public static final String PHASE_COMPLETE = "Complete";
    public static final String PHASE_FAILED = "Failed";

    @JsonPropertyDescription("Pending (waiting for the cluster or for an older run), Running, Complete or Failed. "
            + "Complete and Failed are final.")
    private String phase;

    @JsonPropertyDescription("When the run started, RFC 3339.")
    private String startedAt;

    @JsonPropertyDescription("When the run finished, RFC 3339.")
    private String completedAt;

    @JsonPropertyDescription("Number of members defragmented so far.")
    private Integer defragmented;

    @JsonPropertyDescription("What the run did to each member, keyed by member name.")
    private List<DefragMemberStatus> members;

    @JsonPropertyDescription("The run's conditions; Ready says why a Pending run waits.")
    private List<Condition> conditions;

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
    }

    public String getStartedAt() {
        return startedAt;
    }

    public void setStartedAt(String startedAt) {
        this.startedAt = startedAt;
    }

    public String getCompletedAt() {
        return completedAt;
    }

    public void setCompletedAt(String completedAt) {
        this.completedAt = completedAt;
    }

    public Integer getDefragmented() {
        return defragmented;
    }

    public void setDefragmented(Integer defragmented) {
        this.defragmented = defragmented;
    }

    public List<DefragMemberStatus> getMembers() {
        return members;
    }

    public void setMembers(List<DefragMemberStatus> members) {
        this.members = members;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof EtcdDefragStatus that)) {
            return false;
        }
        return Objects.equals(phase, that.phase)
                && Objects.equals(startedAt, that.startedAt)
                && Objects.equals(completedAt, that.completedAt)
                && Objects.equals(defragmented, that.defragmented)
                && Objects.equals(members, that.members)
                && Objects.equals(conditions, that.conditions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(phase, startedAt, completedAt, defragmented, members, conditions);
    }
}
