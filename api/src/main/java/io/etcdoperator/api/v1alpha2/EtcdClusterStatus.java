package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.etcdoperator.api.schema.SchemaPatch;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import java.util.List;
import java.util.Objects;

@SchemaCustomizer(value = SchemaPatch.class, input = """
    properties:
      progressDeadline: {format: "date-time"}
    """)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdClusterStatus {

  @StatusReplicas
  private Integer readyMembers;

  @LabelSelector
  private String selector;

  private Integer brokenMembers;

  @JsonProperty("clusterID")
  private String clusterID;

  private String clusterToken;

  private Boolean authEnabled;

  /** Lowest etcd version running among the voters (our addition): what the cluster as a whole speaks. */
  private String version;

  private ObservedClusterSpec observed;

  private String progressDeadline;

  private List<Condition> conditions;

  private Long observedGeneration;

  public Integer getReadyMembers() {
    return readyMembers;
  }

  public void setReadyMembers(Integer readyMembers) {
    this.readyMembers = readyMembers;
  }

  public String getVersion() {
    return version;
  }

  public void setVersion(String version) {
    this.version = version;
  }

  public String getSelector() {
    return selector;
  }

  public void setSelector(String selector) {
    this.selector = selector;
  }

  public Integer getBrokenMembers() {
    return brokenMembers;
  }

  public void setBrokenMembers(Integer brokenMembers) {
    this.brokenMembers = brokenMembers;
  }

  public String getClusterID() {
    return clusterID;
  }

  public void setClusterID(String clusterID) {
    this.clusterID = clusterID;
  }

  public String getClusterToken() {
    return clusterToken;
  }

  public void setClusterToken(String clusterToken) {
    this.clusterToken = clusterToken;
  }

  public Boolean getAuthEnabled() {
    return authEnabled;
  }

  public void setAuthEnabled(Boolean authEnabled) {
    this.authEnabled = authEnabled;
  }

  public ObservedClusterSpec getObserved() {
    return observed;
  }

  public void setObserved(ObservedClusterSpec observed) {
    this.observed = observed;
  }

  public String getProgressDeadline() {
    return progressDeadline;
  }

  public void setProgressDeadline(String progressDeadline) {
    this.progressDeadline = progressDeadline;
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
    if (!(o instanceof EtcdClusterStatus that)) {
      return false;
    }
    return Objects.equals(readyMembers, that.readyMembers)
        && Objects.equals(selector, that.selector)
        && Objects.equals(brokenMembers, that.brokenMembers)
        && Objects.equals(clusterID, that.clusterID)
        && Objects.equals(clusterToken, that.clusterToken)
        && Objects.equals(authEnabled, that.authEnabled)
        && Objects.equals(version, that.version)
        && Objects.equals(observed, that.observed)
        && Objects.equals(progressDeadline, that.progressDeadline)
        && Objects.equals(conditions, that.conditions)
        && Objects.equals(observedGeneration, that.observedGeneration);
  }

  @Override
  public int hashCode() {
    return Objects.hash(readyMembers, selector, brokenMembers, clusterID, clusterToken, authEnabled, version, observed,
        progressDeadline, conditions, observedGeneration);
  }
}
