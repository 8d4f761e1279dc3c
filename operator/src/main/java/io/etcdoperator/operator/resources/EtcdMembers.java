package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.Map;

/** New EtcdMembers, copied from the latched target (status.observed), never from the live spec. */
public final class EtcdMembers {

  private EtcdMembers() {}

  /** A member with an empty initial cluster: no Pod starts until etcd has been told about it. */
  public static EtcdMember pending(EtcdCluster cluster, boolean seed) {
    ObservedClusterSpec target = cluster.getStatus().getObserved();
    String name = cluster.getMetadata().getName();
    EtcdMemberSpec spec = new EtcdMemberSpec();
    spec.setClusterName(name);
    spec.setVersion(target.getVersion());
    spec.setStorage(target.getStorage());
    spec.setResources(target.getResources());
    spec.setAdditionalMetadata(target.getAdditionalMetadata());
    spec.setAffinity(target.getAffinity());
    spec.setTopologySpreadConstraints(target.getTopologySpreadConstraints());
    spec.setOptions(target.getOptions());
    spec.setImagePullSecrets(target.getImagePullSecrets());
    spec.setBootstrap(seed);
    spec.setInitialCluster("");
    spec.setClusterToken(cluster.getStatus().getClusterToken());
    spec.setReplicas(1);
    spec.setDormant(false);
    spec.setTls(MemberTlsView.of(cluster).toMemberTls());
    if (seed && cluster.getSpec().getBootstrap() != null) {
      spec.setRestore(cluster.getSpec().getBootstrap().getRestore());
    }
    EtcdMember member = new EtcdMember();
    member.setMetadata(new ObjectMetaBuilder()
        .withGenerateName(Names.memberPrefix(cluster))
        .withNamespace(cluster.getMetadata().getNamespace())
        .withLabels(Labels.withUserLabels(Labels.cluster(name), target.getAdditionalMetadata()))
        .withAnnotations(Labels.withUserAnnotations(Map.of(), target.getAdditionalMetadata()))
        .withOwnerReferences(Owners.controller(cluster))
        .build());
    member.setSpec(spec);
    return member;
  }
}
