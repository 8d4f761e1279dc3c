package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.etcdoperator.api.schema.SchemaPatch;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Objects;

/** Times are RFC 3339 strings, like every other time in this API's status. */
@SchemaCustomizer(value = SchemaPatch.class, input = """
    properties:
      lastScheduleTime: {format: "date-time"}
      lastSuccessfulTime: {format: "date-time"}
    """)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("What the schedule has done, written by the operator. Times are RFC 3339.")
public class EtcdDefragScheduleStatus {

    @JsonPropertyDescription("When the schedule last created a run.")
    private String lastScheduleTime;

    @JsonPropertyDescription("When the last run of this schedule completed.")
    private String lastSuccessfulTime;

    /** Names of this schedule's EtcdDefrags that have not finished yet (at most one: runs never overlap). */
    @JsonPropertyDescription("Names of this schedule's EtcdDefrags that have not finished yet (at most one).")
    private List<String> active;

    @JsonPropertyDescription("metadata.generation of the spec the status was last computed from.")
    private Long observedGeneration;

    @JsonPropertyDescription("The schedule's conditions; Ready tells whether it is scheduling.")
    private List<Condition> conditions;

    public String getLastScheduleTime() {
        return lastScheduleTime;
    }

    public void setLastScheduleTime(String lastScheduleTime) {
        this.lastScheduleTime = lastScheduleTime;
    }

    public String getLastSuccessfulTime() {
        return lastSuccessfulTime;
    }

    public void setLastSuccessfulTime(String lastSuccessfulTime) {
        this.lastSuccessfulTime = lastSuccessfulTime;
    }

    public List<String> getActive() {
        return active;
    }

    public void setActive(List<String> active) {
        this.active = active;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EtcdDefragScheduleStatus that
                && Objects.equals(lastScheduleTime, that.lastScheduleTime)
                && Objects.equals(lastSuccessfulTime, that.lastSuccessfulTime)
                && Objects.equals(active, that.active)
                && Objects.equals(observedGeneration, that.observedGeneration)
                && Objects.equals(conditions, that.conditions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(lastScheduleTime, lastSuccessfulTime, active, observedGeneration, conditions);
    }
}
