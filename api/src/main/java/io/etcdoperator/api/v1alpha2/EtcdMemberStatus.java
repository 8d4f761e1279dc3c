package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import java.util.List;
import java.util.Objects;

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Observed state of the member, written by the operator.")
public class EtcdMemberStatus {

    @JsonProperty("memberID")
    @JsonPropertyDescription("etcd's member id, in hexadecimal; recorded when the member is added to etcd or the "
            + "cluster is discovered.")
    private String memberID;

    @JsonPropertyDescription("Name of the member's current Pod.")
    private String podName;

    @JsonProperty("podUID")
    @JsonPropertyDescription("UID of the member's current Pod.")
    private String podUID;

    @JsonPropertyDescription("Name of the member's PVC; absent with storage.medium Memory.")
    private String pvcName;

    @JsonProperty("isVoter")
    @JsonPropertyDescription("true once the member is a voting member; false while it is a learner catching up.")
    private Boolean isVoter;

    @StatusReplicas
    @JsonPropertyDescription(
            "Always 1 once the operator reports on the member: a member is one Pod. For the scale " + "subresource.")
    private Integer replicas;

    @LabelSelector
    @JsonPropertyDescription("Label selector of the member's Pod, as a string, for the scale subresource.")
    private String selector;

    @JsonPropertyDescription("etcd version the member's running etcd reports.")
    private String version;

    @JsonPropertyDescription("The member's conditions, Ready among them.")
    private List<Condition> conditions;

    @JsonPropertyDescription("metadata.generation of the spec the status was last computed from.")
    private Long observedGeneration;

    public String getMemberID() {
        return memberID;
    }

    public void setMemberID(String memberID) {
        this.memberID = memberID;
    }

    public String getPodName() {
        return podName;
    }

    public void setPodName(String podName) {
        this.podName = podName;
    }

    public String getPodUID() {
        return podUID;
    }

    public void setPodUID(String podUID) {
        this.podUID = podUID;
    }

    public String getPvcName() {
        return pvcName;
    }

    public void setPvcName(String pvcName) {
        this.pvcName = pvcName;
    }

    public Boolean getIsVoter() {
        return isVoter;
    }

    public void setIsVoter(Boolean isVoter) {
        this.isVoter = isVoter;
    }

    public Integer getReplicas() {
        return replicas;
    }

    public void setReplicas(Integer replicas) {
        this.replicas = replicas;
    }

    public String getSelector() {
        return selector;
    }

    public void setSelector(String selector) {
        this.selector = selector;
    }

    public String getVersion() {
        return version;
    }

    public void setVersion(String version) {
        this.version = version;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof EtcdMemberStatus that)) {
            return false;
        }
        return Objects.equals(memberID, that.memberID)
                && Objects.equals(podName, that.podName)
                && Objects.equals(podUID, that.podUID)
                && Objects.equals(pvcName, that.pvcName)
                && Objects.equals(isVoter, that.isVoter)
                && Objects.equals(replicas, that.replicas)
                && Objects.equals(selector, that.selector)
                && Objects.equals(version, that.version)
                && Objects.equals(conditions, that.conditions)
                && Objects.equals(observedGeneration, that.observedGeneration);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                memberID,
                podName,
                podUID,
                pvcName,
                isVoter,
                replicas,
                selector,
                version,
                conditions,
                observedGeneration);
    }
}
