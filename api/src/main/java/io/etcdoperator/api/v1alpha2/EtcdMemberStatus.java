package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import java.util.List;
import java.util.Objects;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdMemberStatus {

  @JsonProperty("memberID")
  private String memberID;

  private String podName;

  @JsonProperty("podUID")
  private String podUID;

  private String pvcName;

  @JsonProperty("isVoter")
  private Boolean isVoter;

  @StatusReplicas
  private Integer replicas;

  @LabelSelector
  private String selector;

  private String version;

  private List<Condition> conditions;

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
    return Objects.hash(memberID, podName, podUID, pvcName, isVoter, replicas, selector, version, conditions,
        observedGeneration);
  }
}
