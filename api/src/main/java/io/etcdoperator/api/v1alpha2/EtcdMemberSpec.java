package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
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
public class EtcdMemberSpec {

  @Required
  @Size(min = 1)
  private String clusterName;

  @Required
  @Pattern(SchemaPatterns.ETCD_VERSION)
  private String version;

  @Required
  private StorageSpec storage;

  private ResourceRequirements resources;

  private AdditionalMetadata additionalMetadata;

  private Affinity affinity;

  private List<TopologySpreadConstraint> topologySpreadConstraints;

  private EtcdOptions options;

  private List<LocalObjectReference> imagePullSecrets;

  private Boolean bootstrap;

  @Required
  private String initialCluster;

  @Required
  private String clusterToken;

  @SpecReplicas
  @Default("1")
  @Min(1)
  @Max(1)
  private Integer replicas;

  private Boolean dormant;

  private MemberTls tls;

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
    return Objects.hash(clusterName, version, storage, resources, additionalMetadata, affinity,
        topologySpreadConstraints, options, imagePullSecrets, bootstrap, initialCluster,
        clusterToken, replicas, dormant, tls, restore);
  }
}
