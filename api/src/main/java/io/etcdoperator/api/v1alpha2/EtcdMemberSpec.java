package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;
import java.util.List;
import java.util.Objects;

/** One etcd member; created and edited by the operator only. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("Desired state of one member, copied by the operator from its cluster's latched target.")
public class EtcdMemberSpec {

    @Required
    @Size(min = 1)
    @JsonPropertyDescription("Name of the EtcdCluster this member belongs to, in the same namespace.")
    private String clusterName;

    @Required
    @Pattern(SchemaPatterns.ETCD_VERSION)
    @JsonPropertyDescription("etcd version the member's Pod runs, as MAJOR.MINOR.PATCH.")
    private String version;

    @Required
    @JsonPropertyDescription("The member's data volume, from the cluster's storage.")
    private StorageSpec storage;

    @JsonPropertyDescription("Requests and limits of the member's etcd container.")
    private ResourceRequirements resources;

    @JsonPropertyDescription("Labels and annotations added to the member's Pod and PVC.")
    private AdditionalMetadata additionalMetadata;

    @JsonPropertyDescription("Scheduling affinity of the member's Pod.")
    private Affinity affinity;

    @JsonPropertyDescription("Topology spread constraints of the member's Pod.")
    private List<TopologySpreadConstraint> topologySpreadConstraints;

    @JsonPropertyDescription("etcd server flags of the member.")
    private EtcdOptions options;

    @JsonPropertyDescription("Secrets used to pull the member's image.")
    private List<LocalObjectReference> imagePullSecrets;

    @JsonPropertyDescription("true for the member that forms a new cluster (starts with --initial-cluster-state "
            + "new); false or absent for a member that joins an existing one.")
    private Boolean bootstrap;

    @Required
    @JsonPropertyDescription("The --initial-cluster value the member starts with (name=peerURL pairs); empty until "
            + "the operator has added the member to etcd, and no Pod starts before that.")
    private String initialCluster;

    @Required
    @JsonPropertyDescription(
            "The --initial-cluster-token the member starts with; the same for every member of the " + "cluster.")
    private String clusterToken;

    @SpecReplicas
    @Default("1")
    @Min(1)
    @Max(1)
    @JsonPropertyDescription("Always 1: a member is one Pod. Present so the scale subresource works on members.")
    private Integer replicas;

    @JsonPropertyDescription("true parks the member while its cluster is paused (replicas 0): its Pod is removed and "
            + "its PVC kept, so it resumes with the same data and member id.")
    private Boolean dormant;

    @JsonPropertyDescription("The member's view of the cluster's TLS settings.")
    private MemberTls tls;

    @JsonPropertyDescription("On the first member of a cluster bootstrapped from a snapshot: the snapshot it "
            + "restores before etcd starts.")
    private RestoreSpec restore;

    public String getClusterName() {
        return clusterName;
    }

    public void setClusterName(String clusterName) {
        this.clusterName = clusterName;
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

    public Boolean getBootstrap() {
        return bootstrap;
    }

    public void setBootstrap(Boolean bootstrap) {
        this.bootstrap = bootstrap;
    }

    public String getInitialCluster() {
        return initialCluster;
    }

    public void setInitialCluster(String initialCluster) {
        this.initialCluster = initialCluster;
    }

    public String getClusterToken() {
        return clusterToken;
    }

    public void setClusterToken(String clusterToken) {
        this.clusterToken = clusterToken;
    }

    public Integer getReplicas() {
        return replicas;
    }

    public void setReplicas(Integer replicas) {
        this.replicas = replicas;
    }

    public Boolean getDormant() {
        return dormant;
    }

    public void setDormant(Boolean dormant) {
        this.dormant = dormant;
    }

    public MemberTls getTls() {
        return tls;
    }

    public void setTls(MemberTls tls) {
        this.tls = tls;
    }

    public RestoreSpec getRestore() {
        return restore;
    }

    public void setRestore(RestoreSpec restore) {
        this.restore = restore;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof EtcdMemberSpec that)) {
            return false;
        }
        return Objects.equals(clusterName, that.clusterName)
                && Objects.equals(version, that.version)
                && Objects.equals(storage, that.storage)
                && Objects.equals(resources, that.resources)
                && Objects.equals(additionalMetadata, that.additionalMetadata)
                && Objects.equals(affinity, that.affinity)
                && Objects.equals(topologySpreadConstraints, that.topologySpreadConstraints)
                && Objects.equals(options, that.options)
                && Objects.equals(imagePullSecrets, that.imagePullSecrets)
                && Objects.equals(bootstrap, that.bootstrap)
                && Objects.equals(initialCluster, that.initialCluster)
                && Objects.equals(clusterToken, that.clusterToken)
                && Objects.equals(replicas, that.replicas)
                && Objects.equals(dormant, that.dormant)
                && Objects.equals(tls, that.tls)
                && Objects.equals(restore, that.restore);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                clusterName,
                version,
                storage,
                resources,
                additionalMetadata,
                affinity,
                topologySpreadConstraints,
                options,
                imagePullSecrets,
                bootstrap,
                initialCluster,
                clusterToken,
                replicas,
                dormant,
                tls,
                restore);
    }
}
