package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import java.util.List;
import java.util.Objects;

/** The target the operator latched from the spec; acted on until it is reached. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("The spec as latched by the operator: the target it acts on until it is reached. Copies of "
        + "the immutable fields let the operator refuse changes on servers without CEL rules.")
public class ObservedClusterSpec {

    @Required
    @JsonPropertyDescription("Latched spec.replicas.")
    private Integer replicas;

    @Required
    @JsonPropertyDescription("Latched spec.version.")
    private String version;

    @Required
    @JsonPropertyDescription("Latched spec.storage.")
    private StorageSpec storage;

    @JsonPropertyDescription("Latched spec.resources.")
    private ResourceRequirements resources;

    @JsonPropertyDescription("Latched spec.additionalMetadata.")
    private AdditionalMetadata additionalMetadata;

    @JsonPropertyDescription("Latched spec.affinity.")
    private Affinity affinity;

    @JsonPropertyDescription("Latched spec.topologySpreadConstraints.")
    private List<TopologySpreadConstraint> topologySpreadConstraints;

    @JsonPropertyDescription("Latched spec.options.")
    private EtcdOptions options;

    @JsonPropertyDescription("Latched spec.imagePullSecrets.")
    private List<LocalObjectReference> imagePullSecrets;

    // Additive (not in cozystack's v1alpha2): the immutable parts of the spec as first latched, so the operator can
    // refuse a change on servers that dropped the CEL transition rules (Kubernetes < 1.25). See docs/concepts.md.
    @JsonPropertyDescription("spec.tls as first latched; a later change is refused.")
    private ClusterTls tls;

    @JsonPropertyDescription("spec.auth as first latched; a later change is refused.")
    private AuthSpec auth;

    @JsonPropertyDescription("spec.bootstrap as first latched; a later change is refused.")
    private BootstrapSpec bootstrap;

    public ClusterTls getTls() {
        return tls;
    }

    public void setTls(ClusterTls tls) {
        this.tls = tls;
    }

    public AuthSpec getAuth() {
        return auth;
    }

    public void setAuth(AuthSpec auth) {
        this.auth = auth;
    }

    public BootstrapSpec getBootstrap() {
        return bootstrap;
    }

    public void setBootstrap(BootstrapSpec bootstrap) {
        this.bootstrap = bootstrap;
    }

    public Integer getReplicas() {
        return replicas;
    }

    public void setReplicas(Integer replicas) {
        this.replicas = replicas;
    }

    public String getVersion() {
        return version;
    }

    public void setVersion(String version) {
        this.version = version;
    }

    public StorageSpec getStorage() {
        return storage;
    }

    public void setStorage(StorageSpec storage) {
        this.storage = storage;
    }

    public ResourceRequirements getResources() {
        return resources;
    }

    public void setResources(ResourceRequirements resources) {
        this.resources = resources;
    }

    public AdditionalMetadata getAdditionalMetadata() {
        return additionalMetadata;
    }

    public void setAdditionalMetadata(AdditionalMetadata additionalMetadata) {
        this.additionalMetadata = additionalMetadata;
    }

    public Affinity getAffinity() {
        return affinity;
    }

    public void setAffinity(Affinity affinity) {
        this.affinity = affinity;
    }

    public List<TopologySpreadConstraint> getTopologySpreadConstraints() {
        return topologySpreadConstraints;
    }

    public void setTopologySpreadConstraints(List<TopologySpreadConstraint> topologySpreadConstraints) {
        this.topologySpreadConstraints = topologySpreadConstraints;
    }

    public EtcdOptions getOptions() {
        return options;
    }

    public void setOptions(EtcdOptions options) {
        this.options = options;
    }

    public List<LocalObjectReference> getImagePullSecrets() {
        return imagePullSecrets;
    }

    public void setImagePullSecrets(List<LocalObjectReference> imagePullSecrets) {
        this.imagePullSecrets = imagePullSecrets;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ObservedClusterSpec that)) {
            return false;
        }
        return Objects.equals(replicas, that.replicas)
                && Objects.equals(version, that.version)
                && Objects.equals(storage, that.storage)
                && Objects.equals(resources, that.resources)
                && Objects.equals(additionalMetadata, that.additionalMetadata)
                && Objects.equals(affinity, that.affinity)
                && Objects.equals(topologySpreadConstraints, that.topologySpreadConstraints)
                && Objects.equals(options, that.options)
                && Objects.equals(imagePullSecrets, that.imagePullSecrets)
                && Objects.equals(tls, that.tls)
                && Objects.equals(auth, that.auth)
                && Objects.equals(bootstrap, that.bootstrap);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                replicas,
                version,
                storage,
                resources,
                additionalMetadata,
                affinity,
                topologySpreadConstraints,
                options,
                imagePullSecrets,
                tls,
                auth,
                bootstrap);
    }
}
