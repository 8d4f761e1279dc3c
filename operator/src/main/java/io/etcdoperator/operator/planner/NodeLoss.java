package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.planner.ObservedCluster.StrandedPod;
import io.etcdoperator.operator.reason.Reason;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;

/**
 * A node that stops: its Pods are never evicted on their own (no kubelet confirms a deletion), so a member on a node
 * that has not been Ready for {@link #GRACE} is replaced while quorum allows, and its Pod, once the member is out of
 * etcd, is force-deleted. docs/operations.md "Node loss" explains the timing and why the force delete is safe.
 */
final class NodeLoss {

    /**
     * How long a member's node may be NotReady before the member is replaced. On top of kube-controller-manager's
     * node-monitor-grace-period (40 s by default), so a kubelet restart or a short network blip never costs a member.
     */
    static final Duration GRACE = Duration.ofSeconds(60);

    private NodeLoss() {}

    static Optional<Step> next(ObservedCluster observed, Membership membership) {
        Optional<StrandedPod> stranded = observed.stranded().stream()
                .filter(p -> past(p.node(), observed))
                .filter(p ->
                        membership.members().stream().noneMatch(m -> m.name().equals(p.pod())))
                .min(Comparator.comparing(StrandedPod::pod));
        if (stranded.isPresent()) {
            return Optional.of(new Step.ForceDeletePod(
                    stranded.get().pod(), stranded.get().node().node()));
        }
        Optional<Step> unrunnable = unrunnable(observed, membership);
        if (unrunnable.isPresent()) {
            return unrunnable;
        }
        Optional<ObservedMember> down = observed.running().stream()
                .filter(m -> m.nodeDown().isPresent())
                .min(Comparator.comparing(
                                (ObservedMember m) -> m.nodeDown().get().since())
                        .thenComparing(ObservedMember::name));
        if (down.isEmpty()) {
            return Optional.empty();
        }
        ObservedMember member = down.get();
        ObservedMember.NodeDown node = member.nodeDown().get();
        Duration notReadyFor = Duration.between(node.since(), observed.observedAt());
        String what = "member " + member.name() + ": node " + node.node() + " not Ready for " + notReadyFor.toSeconds()
                + " s";
        if (!past(node, observed)) {
            Duration left = GRACE.minus(notReadyFor);
            return Optional.of(new Step.Wait(
                    Reason.NODE_NOT_READY,
                    what + "; replaced after " + GRACE.toSeconds() + " s while quorum allows",
                    left.compareTo(ClusterPlanner.LONG) < 0 ? left : ClusterPlanner.LONG));
        }
        if (!observed.quorumSurvivesRemoval(member, membership)) {
            return Optional.of(new Step.Wait(
                    Reason.QUORUM_AT_RISK, what + "; it cannot be removed without losing quorum", ClusterPlanner.LONG));
        }
        return Optional.of(new Step.ReplaceNodeLostMember(member.name(), node.node(), notReadyFor));
    }

    /**
     * A voter whose Pod the scheduler has not placed for the cluster's progress deadline (its volume's node is gone,
     * no node fits) is replaced while quorum allows; its volume is kept. Before that it is only reported.
     */
    private static Optional<Step> unrunnable(ObservedCluster observed, Membership membership) {
        Optional<ObservedMember> stuck = observed.running().stream()
                .filter(m -> !m.ready() && m.unrunnable().isPresent())
                .filter(m -> m.votesIn(membership))
                .min(Comparator.comparing(
                                (ObservedMember m) -> m.unrunnable().get().since())
                        .thenComparing(ObservedMember::name));
        if (stuck.isEmpty()) {
            return Optional.empty();
        }
        ObservedMember member = stuck.get();
        ObservedMember.Unrunnable pending = member.unrunnable().get();
        Duration pendingFor = Duration.between(pending.since(), observed.observedAt());
        String what = "voter " + member.name() + "'s Pod cannot run for " + pendingFor.toSeconds() + " s ("
                + pending.why() + ")";
        if (pendingFor.compareTo(pending.allowed()) < 0) {
            return Optional.of(new Step.Wait(
                    Reason.POD_UNSCHEDULABLE,
                    what + "; replaced after " + pending.allowed().toSeconds()
                            + " s (progressDeadlineSeconds) while quorum allows",
                    ClusterPlanner.LONG));
        }
        if (!observed.quorumSurvivesRemoval(member, membership)) {
            return Optional.of(new Step.Wait(
                    Reason.QUORUM_AT_RISK, what + "; it cannot be removed without losing quorum", ClusterPlanner.LONG));
        }
        return Optional.of(new Step.ReplaceUnrunnableMember(member.name(), pending.why(), pendingFor));
    }

    private static boolean past(ObservedMember.NodeDown node, ObservedCluster observed) {
        return !node.since().plus(GRACE).isAfter(observed.observedAt());
    }
}
