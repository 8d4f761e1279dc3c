package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.util.Objects;

/** A one-shot defragmentation of an EtcdCluster's members. */
@ValidationRule(
        value = "has(self.clusterRef) && has(self.clusterRef.name) && size(self.clusterRef.name) != 0",
        message = "clusterRef.name must name an EtcdCluster")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Which cluster to defragment, which members, and when to delete the finished run.")
public class EtcdDefragSpec {

    @Required
    @JsonPropertyDescription("The EtcdCluster to defragment, by name, in the same namespace.")
    private LocalObjectReference clusterRef;

    @JsonPropertyDescription(
            "Which members to defragment; absent or empty means members with more than 200Mi " + "reclaimable.")
    private DefragRule rule;

    @Min(0)
    @JsonPropertyDescription(
            "Seconds after which a Complete or Failed run is deleted; absent keeps it, 0 deletes it " + "at once.")
    private Integer ttlSecondsAfterFinished;

    public LocalObjectReference getClusterRef() {
        return clusterRef;
    }

    public void setClusterRef(LocalObjectReference clusterRef) {
        this.clusterRef = clusterRef;
    }

    public DefragRule getRule() {
        return rule;
    }

    public void setRule(DefragRule rule) {
        this.rule = rule;
    }

    public Integer getTtlSecondsAfterFinished() {
        return ttlSecondsAfterFinished;
    }

    public void setTtlSecondsAfterFinished(Integer ttlSecondsAfterFinished) {
        this.ttlSecondsAfterFinished = ttlSecondsAfterFinished;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof EtcdDefragSpec that)) {
            return false;
        }
        return Objects.equals(clusterRef, that.clusterRef)
                && Objects.equals(rule, that.rule)
                && Objects.equals(ttlSecondsAfterFinished, that.ttlSecondsAfterFinished);
    }

    @Override
    public int hashCode() {
        return Objects.hash(clusterRef, rule, ttlSecondsAfterFinished);
    }
}
