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
      phase: {enum: ["Pending", "Started", "Complete", "Failed"]}
    """)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Progress and result of the snapshot, written by the operator.")
public class EtcdSnapshotStatus {

    public static final String PHASE_PENDING = "Pending";
    public static final String PHASE_STARTED = "Started";
    public static final String PHASE_COMPLETE = "Complete";
    public static final String PHASE_FAILED = "Failed";
    /** Condition type: whether the stored snapshot restored and matched its recorded numbers (spec.verify). */
    public static final String CONDITION_VERIFIED = "Verified";

    @JsonPropertyDescription("Pending (waiting to start), Started (the agent Job runs), Complete or Failed. Complete "
            + "and Failed are final.")
    private String phase;

    @JsonPropertyDescription("The stored file; set once the snapshot is Complete.")
    private SnapshotArtifact artifact;

    @JsonPropertyDescription("The snapshot's conditions; Ready is True once it is Complete. With spec.verify, "
            + "Verified is True once the stored snapshot restored and matched the numbers recorded at save time.")
    private List<Condition> conditions;

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
    }

    public SnapshotArtifact getArtifact() {
        return artifact;
    }

    public void setArtifact(SnapshotArtifact artifact) {
        this.artifact = artifact;
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
        if (!(o instanceof EtcdSnapshotStatus that)) {
            return false;
        }
        return Objects.equals(phase, that.phase)
                && Objects.equals(artifact, that.artifact)
                && Objects.equals(conditions, that.conditions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(phase, artifact, conditions);
    }
}
