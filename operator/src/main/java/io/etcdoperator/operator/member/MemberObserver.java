package io.etcdoperator.operator.member;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.cluster.Adopted;
import io.etcdoperator.operator.cluster.AllLostRecourse;
import io.etcdoperator.operator.cluster.EtcdDialer;
import io.etcdoperator.operator.planner.MemberRemoval;
import io.etcdoperator.operator.planner.MemberView;
import io.etcdoperator.operator.reads.KubeReads;
import io.etcdoperator.operator.resources.AgentImage;
import io.etcdoperator.operator.resources.EtcdMembers;
import io.etcdoperator.operator.resources.Labels;
import io.etcdoperator.operator.resources.MemberPodStatus;
import io.etcdoperator.operator.resources.MemberPods;
import io.etcdoperator.operator.resources.MemberTlsView;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.resources.Owners;
import io.fabric8.kubernetes.api.model.Pod;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what the member controller decides on, and decides nothing: the member's Pod and claim, the Secrets its Pod
 * mounts, whether its cluster formed, the voters to dial through, and the member's entry in etcd's list.
 */
final class MemberObserver {

    private static final Logger LOG = LoggerFactory.getLogger(MemberObserver.class);

    private final KubeReads apiServer;
    private final EtcdDialer dialer;
    private final Optional<AgentImage> agent;

    /** {@code apiServer}: where the cluster and its members are read (the member's own Pod and claim: the pass's). */
    MemberObserver(KubeReads apiServer, EtcdDialer dialer, Optional<AgentImage> agent) {
        this.apiServer = apiServer;
        this.dialer = dialer;
        this.agent = agent;
    }

    /**
     * A ready Pod's member with no id recorded: its entry in etcd's member list (by name, else by peer URL) and the
     * version it runs. Empty when there is nothing to find out.
     */
    Optional<MemberIdentity> identity(EtcdMember member, Pod pod) {
        boolean known = member.getStatus() != null && member.getStatus().getMemberID() != null;
        if (known
                || pod == null
                || !MemberPodStatus.ready(pod)
                || RestoreProgress.of(pod).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(find(member));
    }

    private MemberIdentity find(EtcdMember member) {
        EtcdCluster cluster = cluster(member);
        if (cluster == null) {
            return new MemberIdentity.NotYet("cluster not found");
        }
        List<URI> endpoints = voterEndpoints(cluster);
        if (endpoints.isEmpty()) {
            endpoints = List.of(Names.clientUrl(member));
        }
        try (EtcdAdmin etcd = dialer.open(cluster, endpoints)) {
            Membership membership = etcd.members();
            Optional<Member> self = membership.entryOf(member.getMetadata().getName(), Names.peerUrl(member));
            if (self.isEmpty()) {
                return new MemberIdentity.NotYet("not in etcd's member list yet");
            }
            return new MemberIdentity.Found(self.get().id().hex(), version(etcd, member));
        } catch (EtcdException | EtcdDialer.MissingMaterialException e) {
            return new MemberIdentity.NotYet(e.getMessage());
        }
    }

    private static Optional<String> version(EtcdAdmin etcd, EtcdMember member) {
        try {
            return Optional.of(etcd.status(Names.clientUrl(member)).version());
        } catch (EtcdException e) {
            LOG.atDebug().addKeyValue("member", member.getMetadata().getName()).log("version not observed");
            return Optional.empty();
        }
    }

    /** Reads only: what the member's Pod, claim and Secrets are, and whether its cluster formed (a seed's start). */
    MemberView observe(EtcdMember member, Pod pod, KubeReads reads) {
        boolean pending = pending(member);
        boolean dormant = Boolean.TRUE.equals(member.getSpec().getDormant());
        boolean memory = MemberPods.memoryBacked(member.getSpec());
        boolean starts = !pending && !dormant && pod == null; // what only a Pod's creation needs is read only then
        String claim = Names.dataPvc(member.getMetadata().getName());
        return new MemberView(
                pending,
                dormant,
                memory,
                Optional.ofNullable(pod).map(p -> memberPod(member, p)),
                MemberPodStatus.podLost(member, pod),
                memory || pending || dormant ? MemberView.Volume.NOT_USED : volume(member, claim, reads),
                claim,
                starts ? missingSecret(member) : Optional.empty(),
                !starts || existingCluster(member),
                Boolean.TRUE.equals(member.getSpec().getBootstrap())
                        && member.getSpec().getRestore() != null,
                agent.isPresent(),
                Labels.member(
                        member.getSpec().getClusterName(), member.getMetadata().getName()),
                member.getStatus() != null
                        && Boolean.TRUE.equals(member.getStatus().getIsVoter()));
    }

    static boolean pending(EtcdMember member) {
        String initial = member.getSpec().getInitialCluster();
        return initial == null || initial.isEmpty();
    }

    private static MemberView.Volume volume(EtcdMember member, String claim, KubeReads reads) {
        return reads.volume(member.getMetadata().getNamespace(), claim)
                .map(pvc -> Owners.controlledBy(pvc, member.getMetadata().getUid())
                        ? MemberView.Volume.OURS
                        : MemberView.Volume.FOREIGN)
                .orElse(MemberView.Volume.MISSING);
    }

    private static MemberView.MemberPod memberPod(EtcdMember member, Pod pod) {
        return new MemberView.MemberPod(
                pod.getMetadata().getName(),
                pod.getMetadata().getDeletionTimestamp() != null,
                Owners.controlledBy(pod, member.getMetadata().getUid()),
                MemberPodStatus.failed(pod)
                        ? Optional.of(String.valueOf(pod.getStatus().getReason()))
                        : Optional.empty(),
                pod.getMetadata().getLabels() == null
                        ? Map.of()
                        : pod.getMetadata().getLabels());
    }

    /** A seed forms a new cluster only the very first time; a seed coming back with an empty disk must not. */
    boolean existingCluster(EtcdMember member) {
        boolean seed = Boolean.TRUE.equals(member.getSpec().getBootstrap());
        boolean knownId = member.getStatus() != null && member.getStatus().getMemberID() != null;
        if (!seed || knownId) {
            return true;
        }
        EtcdCluster cluster = cluster(member);
        boolean formed = cluster != null
                && cluster.getStatus() != null
                && cluster.getStatus().getClusterID() != null;
        return formed;
    }

    private Optional<String> missingSecret(EtcdMember member) {
        MemberTlsView tls = MemberTlsView.of(member);
        for (String secret : new String[] {tls.clientSecret(), tls.peerSecret()}) {
            if (secret != null
                    && dialer.secrets()
                            .get(member.getMetadata().getNamespace(), secret)
                            .isEmpty()) {
                return Optional.of("waiting for Secret " + secret);
            }
        }
        return Optional.empty();
    }

    /** {@link EtcdMembers#voterEndpoints} of the member's cluster. */
    List<URI> voterEndpoints(EtcdCluster cluster) {
        return EtcdMembers.voterEndpoints(apiServer.members(
                cluster.getMetadata().getNamespace(), cluster.getMetadata().getName()));
    }

    /** What the finalizer decides on, with the cluster and the endpoints MemberRemove would go through. */
    record Removal(MemberRemoval.Facts facts, EtcdCluster cluster, List<URI> endpoints) {}

    /** The member and its cluster; the cluster's other EtcdMembers only once the planner asks ({@link #peers}). */
    Removal removal(EtcdMember member) {
        EtcdCluster cluster = cluster(member);
        var facts = new MemberRemoval.Facts(
                member.getMetadata().getName(),
                recordedId(member),
                Names.peerUrl(member),
                cluster != null,
                cluster != null && cluster.getMetadata().getDeletionTimestamp() != null,
                cluster != null && Adopted.externalVoting(cluster),
                cluster != null && AllLostRecourse.resetAsked(cluster),
                Optional.empty());
        return new Removal(facts, cluster, List.of());
    }

    /** The voters MemberRemove could go through (and an adopted etcd's own members), and whether others are left. */
    Removal peers(Removal removal) {
        MemberRemoval.Facts f = removal.facts();
        EtcdCluster cluster = removal.cluster();
        List<EtcdMember> others =
                apiServer
                        .members(
                                cluster.getMetadata().getNamespace(),
                                cluster.getMetadata().getName())
                        .stream()
                        .filter(m -> !m.getMetadata().getName().equals(f.member()))
                        .toList();
        List<URI> endpoints = new ArrayList<>(EtcdMembers.voterEndpoints(others));
        if (f.externalVoting()) {
            endpoints.addAll(Adopted.clientUrls(cluster));
        }
        var peers = new MemberRemoval.Peers(!endpoints.isEmpty(), !others.isEmpty());
        return new Removal(f.withPeers(peers), cluster, List.copyOf(endpoints));
    }

    /** status.memberID; one that is not an id (the CRD does not pattern it) names nothing. */
    private static Optional<MemberId> recordedId(EtcdMember member) {
        String recorded = member.getStatus() == null ? null : member.getStatus().getMemberID();
        try {
            return recorded == null || recorded.isBlank() ? Optional.empty() : Optional.of(MemberId.parse(recorded));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    EtcdCluster cluster(EtcdMember member) {
        return apiServer
                .cluster(member.getMetadata().getNamespace(), member.getSpec().getClusterName())
                .orElse(null);
    }

    static Pod pod(EtcdMember member, KubeReads reads) {
        return reads.pod(
                        member.getMetadata().getNamespace(),
                        member.getMetadata().getName())
                .orElse(null);
    }
}
