package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;
import java.util.List;
import java.util.Objects;

/** Desired state of an etcd cluster. Rules with oldSelf run on update only. */
@ValidationRule(
        value = "!(has(self.replicas) && self.replicas == 0 "
                + "&& has(self.storage) && has(self.storage.medium) && self.storage.medium == 'Memory')",
        message = "replicas cannot be 0 with storage.medium Memory: "
                + "a paused tmpfs-backed cluster would have nothing to resume from")
@ValidationRule(
        value = "!has(self.storage) || !has(self.storage.medium) || "
                + "self.storage.medium != 'Memory' || "
                + "(has(self.storage.size) && quantity(string(self.storage.size)).isGreaterThan(quantity('0')))",
        message = "storage.size must be greater than zero when storage.medium is Memory")
@ValidationRule(
        value = "has(self.tls) == has(oldSelf.tls)",
        message = "tls cannot be added to or removed from an existing cluster; recreate the cluster instead")
@ValidationRule(
        value = "!has(self.tls) || !has(oldSelf.tls) || self.tls == oldSelf.tls",
        message = "tls is immutable; recreate the cluster to change it")
@ValidationRule(
        value = "(has(self.storage) && has(self.storage.storageClassName)) "
                + "== (has(oldSelf.storage) && has(oldSelf.storage.storageClassName))",
        message = "storage.storageClassName cannot be added or removed after creation")
@ValidationRule(
        value = "!has(self.storage) || !has(oldSelf.storage) || "
                + "!has(self.storage.storageClassName) || "
                + "!has(oldSelf.storage.storageClassName) || "
                + "self.storage.storageClassName == oldSelf.storage.storageClassName",
        message = "storage.storageClassName is immutable")
@ValidationRule(
        value = "has(self.auth) == has(oldSelf.auth)",
        message = "auth cannot be added to or removed from an existing cluster; recreate the cluster instead")
@ValidationRule(
        value = "!has(self.auth) || !has(oldSelf.auth) || self.auth == oldSelf.auth",
        message = "auth is immutable; recreate the cluster to change it")
@ValidationRule(
        value = "!has(self.auth) || !has(self.auth.enabled) || "
                + "!self.auth.enabled || (has(self.tls) && (has(self.tls.client) || has(self.tls.operatorIssued)))",
        message =
                "auth.enabled requires tls.client (or tls.operatorIssued), so that credentials never cross the network "
                        + "in plaintext")
@ValidationRule(
        value = "!has(self.auth) || !has(self.auth.enabled) || "
                + "!self.auth.enabled || has(self.auth.rootCredentialsSecretRef)",
        message = "auth.enabled requires auth.rootCredentialsSecretRef")
@ValidationRule(
        value = "has(self.bootstrap) == has(oldSelf.bootstrap)",
        message = "bootstrap cannot be added to or removed from an existing cluster")
@ValidationRule(
        value = "!has(self.bootstrap) || !has(oldSelf.bootstrap) || " + "self.bootstrap == oldSelf.bootstrap",
        message = "bootstrap is immutable: it is only read when the cluster is first formed")
@ValidationRule(
        value = "!has(self.bootstrap) || !has(self.bootstrap.restore) || "
                + "!has(self.storage) || !has(self.storage.medium) || "
                + "self.storage.medium != 'Memory'",
        message = "bootstrap.restore cannot be used with storage.medium Memory")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Desired state of the cluster. The operator latches it into status.observed once the "
        + "previous target is reached and then works towards it one member at a time. tls, auth, bootstrap, "
        + "storage.medium and storage.storageClassName are immutable.")
public class EtcdClusterSpec {

    @SpecReplicas
    @Default("3")
    @Min(0)
    @Max(EtcdOperatorApi.MAX_REPLICAS)
    @JsonPropertyDescription("Number of voting members, 0 to 7; default 3. 0 pauses the cluster: it scales down to "
            + "one member whose Pod is removed and whose PVC is kept, and a later value above 0 resumes it from that "
            + "volume (not allowed with storage.medium Memory). A lower value is latched at once; a higher one waits for "
            + "the current target.")
    private Integer replicas;

    @Required
    @Pattern(SchemaPatterns.ETCD_VERSION)
    @JsonPropertyDescription("etcd version the members run, as MAJOR.MINOR.PATCH (for example 3.5.16); it picks the "
            + "image tag. Patch changes roll either way, minor upgrades go one minor at a time; a change etcd does not "
            + "support is refused with Degraded=True/UnsupportedUpgrade.")
    private String version;

    @Default("{\"size\": \"1Gi\"}")
    @JsonPropertyDescription("Per-member data volume: a PVC by default, or a tmpfs with medium Memory. Default: a "
            + "1Gi PVC of the default StorageClass.")
    private StorageSpec storage;

    @Default("600")
    @Min(1)
    @JsonPropertyDescription("Seconds each latched target may take to be reached; default 600, at least 1. Past the "
            + "deadline the cluster reports DeadlineExceeded (UpgradeStalled while members are left to roll) and takes no "
            + "further step until the spec changes.")
    private Integer progressDeadlineSeconds;

    @Min(0)
    @JsonPropertyDescription("Seconds a released volume of a replaced member (label "
            + "etcd-operator.cozystack.io/retained-from-member) is kept before the operator deletes it; absent keeps it until "
            + "a person deletes it. Volumes are released, never deleted, when a member is replaced for lost data, a lost "
            + "node or an unschedulable Pod.")
    private Integer retainedVolumeSeconds;

    @JsonPropertyDescription("TLS for the client (2379) and peer (2380) ports; an absent plane is plaintext. "
            + "Immutable: cannot be added, removed or changed after creation.")
    private ClusterTls tls;

    @JsonPropertyDescription("etcd authentication with the root user. Immutable: cannot be added, removed or changed "
            + "after creation.")
    private AuthSpec auth;

    @JsonPropertyDescription(
            "How the cluster is first formed, for example from a snapshot. Read only at formation; " + "immutable.")
    private BootstrapSpec bootstrap;

    @JsonPropertyDescription("CPU and memory requests and limits of each member's etcd container. A change rolls the "
            + "members one at a time.")
    private ResourceRequirements resources;

    @JsonPropertyDescription("Labels and annotations added to the objects the operator creates for this cluster "
            + "(Pods, Services, PVCs). Keys under etcd-operator.cozystack.io/ are reserved for the operator.")
    private AdditionalMetadata additionalMetadata;

    @JsonPropertyDescription(
            "Scheduling affinity of the member Pods, for example to keep members on different nodes " + "or zones.")
    private Affinity affinity;

    @JsonPropertyDescription("Topology spread constraints of the member Pods.")
    private List<TopologySpreadConstraint> topologySpreadConstraints;

    @JsonPropertyDescription("etcd server flags set on every member. A change rolls the members one at a time.")
    private EtcdOptions options;

    @JsonPropertyDescription("Secrets in the cluster's namespace used to pull the etcd image of the member Pods.")
    private List<LocalObjectReference> imagePullSecrets;

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

    public Integer getRetainedVolumeSeconds() {
        return retainedVolumeSeconds;
    }

    public void setRetainedVolumeSeconds(Integer retainedVolumeSeconds) {
        this.retainedVolumeSeconds = retainedVolumeSeconds;
    }

    public Integer getProgressDeadlineSeconds() {
        return progressDeadlineSeconds;
    }

    public void setProgressDeadlineSeconds(Integer progressDeadlineSeconds) {
        this.progressDeadlineSeconds = progressDeadlineSeconds;
    }

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
        if (!(o instanceof EtcdClusterSpec that)) {
            return false;
        }
        return Objects.equals(replicas, that.replicas)
                && Objects.equals(version, that.version)
                && Objects.equals(storage, that.storage)
                && Objects.equals(progressDeadlineSeconds, that.progressDeadlineSeconds)
                && Objects.equals(retainedVolumeSeconds, that.retainedVolumeSeconds)
                && Objects.equals(tls, that.tls)
                && Objects.equals(auth, that.auth)
                && Objects.equals(bootstrap, that.bootstrap)
                && Objects.equals(resources, that.resources)
                && Objects.equals(additionalMetadata, that.additionalMetadata)
                && Objects.equals(affinity, that.affinity)
                && Objects.equals(topologySpreadConstraints, that.topologySpreadConstraints)
                && Objects.equals(options, that.options)
                && Objects.equals(imagePullSecrets, that.imagePullSecrets);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                replicas,
                version,
                storage,
                progressDeadlineSeconds,
                retainedVolumeSeconds,
                tls,
                auth,
                bootstrap,
                resources,
                additionalMetadata,
                affinity,
                topologySpreadConstraints,
                options,
                imagePullSecrets);
    }
}
