package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import io.etcdoperator.operator.planner.MemberMaterial;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.net.URI;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** New EtcdMembers, copied from the latched target (status.observed), never from the live spec. */
public final class EtcdMembers {

    private EtcdMembers() {}

    /**
     * Client URLs of the voters that have a Pod, in name order: what the operator dials outside a cluster pass (a
     * member's id, MemberRemove, a snapshot). Learners never: they refuse most RPCs.
     */
    public static List<URI> voterEndpoints(List<EtcdMember> members) {
        return members.stream()
                .filter(m -> m.getMetadata().getDeletionTimestamp() == null
                        && !Boolean.TRUE.equals(m.getSpec().getDormant()))
                .filter(m -> m.getStatus() != null
                        && Boolean.TRUE.equals(m.getStatus().getIsVoter()))
                .filter(m -> m.getStatus().getPodName() != null
                        && !m.getStatus().getPodName().isEmpty())
                .sorted(Comparator.comparing(m -> m.getMetadata().getName()))
                .map(Names::clientUrl)
                .toList();
    }

    /**
     * The member as the latched target wants it: the rollable fields taken from the target, identity, bootstrap, initial
     * cluster and TLS kept. A copy; the input is not changed.
     */
    public static EtcdMember retarget(EtcdMember member, ObservedClusterSpec target) {
        EtcdMember copy = new EtcdMember();
        copy.setMetadata(member.getMetadata());
        copy.setStatus(member.getStatus());
        EtcdMemberSpec spec = shallowCopy(member.getSpec());
        copyTarget(target, spec);
        copy.setSpec(spec);
        return copy;
    }

    private static void copyTarget(ObservedClusterSpec target, EtcdMemberSpec spec) {
        spec.setVersion(target.getVersion());
        spec.setStorage(target.getStorage());
        spec.setResources(target.getResources());
        spec.setAdditionalMetadata(target.getAdditionalMetadata());
        spec.setAffinity(target.getAffinity());
        spec.setTopologySpreadConstraints(target.getTopologySpreadConstraints());
        spec.setOptions(target.getOptions());
        spec.setImagePullSecrets(target.getImagePullSecrets());
    }

    private static EtcdMemberSpec shallowCopy(EtcdMemberSpec s) {
        EtcdMemberSpec c = new EtcdMemberSpec();
        c.setClusterName(s.getClusterName());
        c.setVersion(s.getVersion());
        c.setStorage(s.getStorage());
        c.setResources(s.getResources());
        c.setAdditionalMetadata(s.getAdditionalMetadata());
        c.setAffinity(s.getAffinity());
        c.setTopologySpreadConstraints(s.getTopologySpreadConstraints());
        c.setOptions(s.getOptions());
        c.setImagePullSecrets(s.getImagePullSecrets());
        c.setBootstrap(s.getBootstrap());
        c.setInitialCluster(s.getInitialCluster());
        c.setClusterToken(s.getClusterToken());
        c.setReplicas(s.getReplicas());
        c.setDormant(s.getDormant());
        c.setTls(s.getTls());
        c.setRestore(s.getRestore());
        return c;
    }

    /**
     * A member with an empty initial cluster: no Pod starts until etcd has been told about it. Stamped with the
     * operator-issued TLS material it is to start with, if any: its Pod copies the stamp, so the roller does not take a
     * member that has just started with current material for a stale one.
     */
    public static EtcdMember pending(EtcdCluster cluster, boolean seed, Optional<MemberMaterial> material) {
        ObservedClusterSpec target = cluster.getStatus().getObserved();
        String name = cluster.getMetadata().getName();
        EtcdMemberSpec spec = new EtcdMemberSpec();
        spec.setClusterName(name);
        copyTarget(target, spec);
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
                .withAnnotations(Labels.withUserAnnotations(
                        material.map(MemberMaterial::annotations).orElse(Map.of()), target.getAdditionalMetadata()))
                .withOwnerReferences(Owners.controller(cluster))
                // the member controller's own: JOSDK adding it would take a pass, and the Pod waits a queue round more
                .withFinalizers(EtcdOperatorApi.MEMBER_FINALIZER)
                .build());
        member.setSpec(spec);
        return member;
    }
}
