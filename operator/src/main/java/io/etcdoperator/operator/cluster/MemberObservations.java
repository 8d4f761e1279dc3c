package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.operator.planner.ClusterPlanner;
import io.etcdoperator.operator.planner.MemberMaterial;
import io.etcdoperator.operator.planner.ObservedMember;
import io.etcdoperator.operator.planner.PodDrift;
import io.etcdoperator.operator.reason.RestartReason;
import io.etcdoperator.operator.resources.EtcdGuard;
import io.etcdoperator.operator.resources.MemberPodStatus;
import io.etcdoperator.operator.resources.MemberPods;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.resources.Owners;
import io.etcdoperator.operator.resources.PodRevisions;
import io.etcdoperator.operator.resources.TlsSecretVersions;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One EtcdMember with its Pod and what etcd said of it, read into an {@link ObservedMember}: the values the planner
 * decides on, and the facts {@link PodDrift} judges whether its Pod must restart on.
 */
final class MemberObservations {

    private MemberObservations() {}

    /**
     * Why this member's Pod must restart, if it must: not what the latched target builds, a restart asked, or a
     * formed cluster's PVC seed still starting "new". {@link #driftFacts} reads, {@link PodDrift} judges.
     */
    static Optional<RestartReason> outdated(
            EtcdMember m,
            Pod pod,
            ObservedClusterSpec target,
            Optional<Instant> restartAt,
            Instant now,
            PodRevisions revisions,
            boolean formed) {
        return PodDrift.reason(driftFacts(m, pod, target, restartAt, revisions, formed), now);
    }

    /**
     * What {@link PodDrift} judges, read off the member, its Pod and the target. A Pod without a revision (created by an
     * older operator) counts as built from its EtcdMember's spec.
     */
    static PodDrift.Facts driftFacts(
            EtcdMember m,
            Pod pod,
            ObservedClusterSpec target,
            Optional<Instant> restartAt,
            PodRevisions revisions,
            boolean formed) {
        String initial = m.getSpec().getInitialCluster();
        boolean judged = target != null
                && initial != null
                && !initial.isEmpty()
                && !Boolean.TRUE.equals(m.getSpec().getDormant());
        Optional<Pod> live =
                Optional.ofNullable(pod).filter(p -> p.getMetadata().getDeletionTimestamp() == null);
        Map<String, String> runs =
                live.map(p -> p.getMetadata().getAnnotations()).orElse(Map.of());
        Map<String, String> wants =
                Optional.ofNullable(m.getMetadata().getAnnotations()).orElse(Map.of());
        boolean materialDiffers = live.isPresent()
                && (!MemberMaterial.fromAnnotations(wants).equals(MemberMaterial.fromAnnotations(runs))
                        || !Objects.equals(
                                wants.get(TlsSecretVersions.ANNOTATION), runs.get(TlsSecretVersions.ANNOTATION)));
        boolean startsNew = live.stream()
                .flatMap(p -> p.getSpec().getContainers().stream())
                .filter(c -> MemberPods.CONTAINER.equals(c.getName()))
                .anyMatch(c -> c.getArgs() != null && c.getArgs().contains("--initial-cluster-state=new"));
        return new PodDrift.Facts(
                judged,
                live.isPresent(),
                judged ? revisions.wanted(m, target) : "",
                judged
                        ? Optional.ofNullable(runs.get(EtcdOperatorApi.ANNOTATION_REVISION))
                                .orElseGet(() -> MemberPods.revision(m))
                        : "",
                m.getSpec().getVersion(),
                target == null ? null : target.getVersion(),
                materialDiffers,
                restartAt,
                live.map(p -> p.getMetadata().getCreationTimestamp()).map(Instant::parse),
                formed && Boolean.TRUE.equals(m.getSpec().getBootstrap()) && !MemberPods.memoryBacked(m.getSpec()),
                startsNew);
    }

    /**
     * A member created moments ago, its member id recorded, whose etcd answers with a leader and no error serves now;
     * its Pod's Ready follows within the kubelet's 1 s probe period. Counting it at once takes that second off every
     * join (docs/benchmarks.md). Only new members: one restarted by a roll or a repair waits for its Pod's Ready.
     */
    static boolean servesBeforeProbe(EtcdMember m, Pod pod, Optional<EndpointStatus> endpoint, Instant now) {
        boolean idKnown = m.getStatus() != null && m.getStatus().getMemberID() != null;
        return pod != null
                && idKnown
                && starting(m, now)
                && MemberPodStatus.running(pod)
                && endpoint.isPresent()
                && endpoint.get().leader().value() != 0
                && endpoint.get().errors().isEmpty();
    }

    static boolean starting(EtcdMember m, Instant now) {
        String created = m.getMetadata().getCreationTimestamp();
        return created != null
                && Instant.parse(created)
                        .plus(ClusterPlanner.LEARNER_START_WINDOW)
                        .isAfter(now);
    }

    static ObservedMember toObserved(
            EtcdMember m,
            String clusterUid,
            Pod pod,
            Optional<RestartReason> outdated,
            Optional<EndpointStatus> endpoint,
            boolean serving,
            boolean volumeBehind,
            Optional<ObservedMember.NodeDown> nodeDown) {
        return toObserved(m, clusterUid, pod, outdated, endpoint, serving, volumeBehind, nodeDown, Optional.empty());
    }

    static ObservedMember toObserved(
            EtcdMember m,
            String clusterUid,
            Pod pod,
            Optional<RestartReason> outdated,
            Optional<EndpointStatus> endpoint,
            boolean serving,
            boolean volumeBehind,
            Optional<ObservedMember.NodeDown> nodeDown,
            Optional<ObservedMember.Unrunnable> unrunnable) {
        var status = m.getStatus();
        String created = m.getMetadata().getCreationTimestamp();
        boolean memory = MemberPods.memoryBacked(m.getSpec());
        return new ObservedMember(
                m.getMetadata().getName(),
                created == null ? Instant.MAX : Instant.parse(created),
                Boolean.TRUE.equals(m.getSpec().getBootstrap()),
                m.getSpec().getInitialCluster() == null
                        || m.getSpec().getInitialCluster().isEmpty(),
                Boolean.TRUE.equals(m.getSpec().getDormant()),
                m.getMetadata().getDeletionTimestamp() != null,
                // the member's Ready condition lags its Pod: a Pod just deleted for a restart must not count as ready
                serving
                        || (status != null
                                && Conditions.isTrue(status.getConditions(), Conditions.READY)
                                && pod != null
                                && MemberPodStatus.ready(pod)),
                VoterEndpoints.hasPod(m),
                status != null && Boolean.TRUE.equals(status.getIsVoter()),
                Optional.ofNullable(status == null ? null : status.getMemberID())
                        .filter(s -> !s.isBlank())
                        .map(MemberId::parse),
                Names.peerUrl(m),
                Owners.controlledBy(m, clusterUid),
                memory,
                memory && (MemberPodStatus.podLost(m, pod) || MemberPodStatus.failed(pod)),
                outdated,
                endpoint,
                m.getSpec().getVersion() == null ? "" : m.getSpec().getVersion(),
                !memory && volumeBehind,
                MemberPodStatus.broken(pod),
                nodeDown,
                EtcdGuard.restartsInPlace(pod),
                PodScheduling.readyPod(pod),
                Optional.empty(),
                unrunnable);
    }
}
