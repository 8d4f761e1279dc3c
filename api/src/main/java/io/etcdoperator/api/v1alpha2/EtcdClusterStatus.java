package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
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
@JsonClassDescription("Observed state of the cluster, written by the operator.")
public class EtcdClusterStatus {

    @StatusReplicas
    @JsonPropertyDescription("Voting members that are ready; learners are not counted. The scale subresource reports "
            + "it as status replicas.")
    private Integer readyMembers;

    @LabelSelector
    @JsonPropertyDescription("Label selector of the member Pods, as a string, for the scale subresource.")
    private String selector;

    @JsonPropertyDescription("Members that had joined and are now down or have lost their data.")
    private Integer brokenMembers;

    @JsonProperty("clusterID")
    @JsonPropertyDescription("etcd's cluster id, in hexadecimal, recorded when the cluster formed.")
    private String clusterID;

    @JsonPropertyDescription("While a running etcd is adopted (spec.bootstrap.existing): the ids, in hexadecimal, of "
            + "the members it had when the operator took it over. They are kept, never counted as orphans, until the "
            + "annotation etcd-operator.cozystack.io/remove-external-members asks for their removal; cleared once etcd "
            + "lists none of them.")
    private List<String> externalMembers;

    @JsonPropertyDescription("The --initial-cluster-token the members were started with.")
    private String clusterToken;

    @JsonPropertyDescription("true once the operator has turned etcd authentication on; never cleared. From then on "
            + "every connection of the operator authenticates as root.")
    private Boolean authEnabled;

    /** Lowest etcd version running among the voters (our addition): what the cluster as a whole speaks. */
    @JsonPropertyDescription("Lowest etcd version a voting member reports: what the cluster as a whole speaks.")
    private String version;

    @JsonPropertyDescription("The target the operator latched from the spec and works towards until it is reached.")
    private ObservedClusterSpec observed;

    @JsonPropertyDescription("RFC 3339 time by which the current target must be reached: the latch time plus "
            + "spec.progressDeadlineSeconds.")
    private String progressDeadline;

    @JsonPropertyDescription("Available, Progressing and Degraded (and Ready), each with a reason and the "
            + "observedGeneration it was computed for.")
    private List<Condition> conditions;

    @JsonPropertyDescription("metadata.generation of the spec the status was last computed from.")
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

    public List<String> getExternalMembers() {
        return externalMembers;
    }

    public void setExternalMembers(List<String> externalMembers) {
        this.externalMembers = externalMembers;
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
                && Objects.equals(externalMembers, that.externalMembers)
                && Objects.equals(version, that.version)
                && Objects.equals(observed, that.observed)
                && Objects.equals(progressDeadline, that.progressDeadline)
                && Objects.equals(conditions, that.conditions)
                && Objects.equals(observedGeneration, that.observedGeneration);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                readyMembers,
                selector,
                brokenMembers,
                clusterID,
                clusterToken,
                authEnabled,
                externalMembers,
                version,
                observed,
                progressDeadline,
                conditions,
                observedGeneration);
    }
}
