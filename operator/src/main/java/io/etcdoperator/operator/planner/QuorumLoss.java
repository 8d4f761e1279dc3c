package io.etcdoperator.operator.planner;

import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.planner.Maintenance.QuorumRecovery;
import io.etcdoperator.operator.reason.Reason;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Recovery from a lost quorum, from the member a person names, or by itself when the majority provably lost its data
 * and one voter survives (see {@link #automatic}): that member starts once with
 * --force-new-cluster (etcd drops every other member and keeps the cluster id and the member's data), the others are
 * discarded with their volumes, then the flag goes and scale-up joins new members as learners. A memory survivor keeps
 * its Pod: etcd-guard restarts etcd in it. docs/operations.md has the runbook; etcd's own rules are in docs/concepts.md.
 */
final class QuorumLoss {

    private QuorumLoss() {}

    static Optional<Step> next(ObservedCluster observed) {
        Optional<QuorumRecovery> asked = observed.maintenance().recovery();
        if (asked.isEmpty()) {
            return automatic(observed);
        }
        if (observed.adopting()) {
            return refuse("a running etcd is being adopted and its own members vote: a forced new cluster would run "
                    + "beside them under the same id; bring the operator's members back, or remove the annotation");
        }
        return requested(observed, asked.get());
    }

    /** The recovery a person asked for, from the member they named. */
    private static Optional<Step> requested(ObservedCluster observed, QuorumRecovery recovery) {
        Optional<ObservedMember> survivor = observed.byName(recovery.from()).filter(ObservedMember::running);
        if (survivor.isEmpty()) {
            return refuse("no running member " + recovery.from() + " of this cluster");
        }
        if (survivor.get().memory()
                && survivor.get().podLost()
                && recovery.flagged().isEmpty()) {
            return refuse(recovery.from() + " kept its data in memory and its Pod is gone: its data is lost; choose a "
                    + "member whose Pod still runs, or see docs/operations.md#all-members-lost");
        }
        if (survivor.get().memory() && !survivor.get().restartsInPlace()) {
            return refuse(
                    recovery.from() + " keeps its data in memory and its Pod has no etcd-guard that restarts etcd in "
                            + "place (the operator runs without its own image): a new Pod with --force-new-cluster would lose the data");
        }
        if (recovery.flagged().isEmpty()) {
            return finished(observed, survivor.get()).or(() -> start(observed, survivor.get()));
        }
        if (!recovery.carriedOut()) {
            return Optional.of(new QuorumLossSteps.ForceNewCluster(
                    survivor.get().name(), survivor.get().memory())); // cut short
        }
        if (!(observed.etcd() instanceof EtcdView.Reached reached)) {
            return Optional.of(new Step.Wait(
                    Reason.QUORUM_RECOVERY,
                    "waiting for " + recovery.from() + " to start as a one-member cluster",
                    ClusterPlanner.MEDIUM));
        }
        Membership membership = reached.membership();
        boolean alone = membership.members().size() == 1
                && membership
                        .members()
                        .getFirst()
                        .peerUrls()
                        .contains(survivor.get().peerUrl());
        if (!alone) {
            return Optional.of(new Step.Wait(
                    Reason.QUORUM_RECOVERY,
                    "etcd still lists " + membership.members().size() + " members; waiting for " + recovery.from()
                            + " to restart with --force-new-cluster",
                    ClusterPlanner.MEDIUM));
        }
        List<ObservedMember> others = observed.members().stream()
                .filter(m -> !m.name().equals(recovery.from()) && !m.deleting())
                .sorted(Comparator.comparing(ObservedMember::name))
                .toList();
        if (!others.isEmpty()) {
            return Optional.of(new QuorumLossSteps.DiscardMembers(
                    others.stream().map(ObservedMember::name).toList(), recovery.from()));
        }
        if (observed.anyDeleting()) {
            return Optional.of(new Step.Wait(
                    Reason.QUORUM_RECOVERY, "discarded members are being deleted", ClusterPlanner.MEDIUM));
        }
        return Optional.of(new QuorumLossSteps.EndForceNewCluster(
                recovery.from(), survivor.get().memory()));
    }

    /**
     * Nobody asked, but a majority of the voters is provably gone: their data is lost (etcd-guard or etcd's raft panic
     * said so, twice; a WAL-less start that cannot reach its peers proves nothing) or, for memory members, their own Pod
     * is, as seen in two passes ({@link LossProof}). With exactly one surviving PVC voter there is no choice to make, so
     * recovery starts from it by itself; members that are only unreachable never count as gone.
     */
    private static Optional<Step> automatic(ObservedCluster observed) {
        List<ObservedMember> voters =
                observed.running().stream().filter(ObservedMember::voterMark).toList();
        List<ObservedMember> gone =
                voters.stream().filter(QuorumLoss::provableLoss).toList();
        // adopting: the external voters are not counted here, and a forced new cluster would drop them
        if (gone.isEmpty() || observed.adopting() || Quorum.holds(voters.size() - gone.size(), voters.size())) {
            return Optional.empty();
        }
        Optional<ObservedMember> unproven = gone.stream()
                .filter(m -> !LossProof.proven(m, observed.observedAt()))
                .findFirst();
        if (unproven.isPresent()) {
            return Optional.of(new Step.Wait(
                    Reason.QUORUM_LOST, "quorum lost; " + LossProof.awaiting(unproven.get()), LossProof.WINDOW));
        }
        List<String> lost = gone.stream().map(ObservedMember::name).sorted().toList();
        List<ObservedMember> survivors =
                voters.stream().filter(m -> !provableLoss(m)).toList();
        if (survivors.isEmpty()) {
            return AllMembersLost.reset(observed)
                    .or(() -> Optional.of(new Step.Wait(
                            Reason.ALL_MEMBERS_LOST, AllMembersLost.message(observed, lost), ClusterPlanner.LONG)));
        }
        ObservedMember survivor = survivors.getFirst();
        if (survivors.size() > 1 || !survivor.hasPod() || (survivor.memory() && !survivor.restartsInPlace())) {
            return Optional.of(new Step.Wait(
                    Reason.QUORUM_LOST,
                    lost + " lost their data and the quorum with it; "
                            + "choose the survivor to restart from: annotate the cluster "
                            + EtcdOperatorApi.ANNOTATION_FORCE_NEW_CLUSTER_FROM + "=<member> "
                            + "(a memory member restarts in place only behind etcd-guard; docs/operations.md)",
                    ClusterPlanner.LONG));
        }
        return Optional.of(new QuorumLossSteps.StartQuorumRecovery(survivor.name(), lost));
    }

    /** Not ready and showing a sign of lost data that would be proof once confirmed (a WAL-less start never is). */
    static boolean provableLoss(ObservedMember member) {
        return !member.ready()
                && (member.broken().map(ObservedMember.Broken::proven).orElse(false)
                        || (member.memory() && member.podLost()));
    }

    /**
     * Never on a cluster that still has its quorum, nor while a majority of voter Pods is Ready (the operator may merely
     * fail to reach etcd: a Secret, DNS or a NetworkPolicy): forcing would throw away what the others acknowledged.
     */
    private static Optional<Step> start(ObservedCluster observed, ObservedMember survivor) {
        List<ObservedMember> voters =
                observed.running().stream().filter(ObservedMember::voterMark).toList();
        int ready = (int) voters.stream().filter(ObservedMember::ready).count();
        int podsReady = (int) voters.stream().filter(ObservedMember::podReady).count();
        if (observed.etcd() instanceof EtcdView.Reached && Quorum.holds(ready, voters.size())) {
            return refuse("the cluster has its quorum (" + ready + "/" + voters.size()
                    + " voters ready); remove the annotation");
        }
        if (Quorum.holds(podsReady, voters.size())) {
            String cause = observed.etcd() instanceof EtcdView.Unreachable u
                    ? "; the operator cannot reach etcd: " + u.detail()
                    : "";
            return refuse(podsReady + "/" + voters.size() + " voter Pods are Ready, so the quorum may well hold" + cause
                    + "; nothing is forced while a majority of voter Pods is Ready");
        }
        if (!survivor.hasPod()) {
            return refuse(survivor.name() + " has no Pod; its volume must be attached to restart from it");
        }
        return Optional.of(new QuorumLossSteps.ForceNewCluster(survivor.name(), survivor.memory()));
    }

    /**
     * The survivor already runs alone and nothing else is left: an EndForceNewCluster cut short after its first write
     * (the mark is gone). Its Pod still built with the flag restarts; otherwise only the request is consumed.
     */
    private static Optional<Step> finished(ObservedCluster observed, ObservedMember survivor) {
        if (!(observed.etcd() instanceof EtcdView.Reached reached)
                || observed.members().size() != 1
                || reached.membership().members().size() != 1
                || !reached.membership().members().getFirst().peerUrls().contains(survivor.peerUrl())) {
            return Optional.empty();
        }
        if (!survivor.memory() && survivor.outdated().isPresent()) {
            return Optional.of(new QuorumLossSteps.EndForceNewCluster(survivor.name(), false));
        }
        return Optional.of(new QuorumLossSteps.ClearRecoveryRequest(survivor.name()));
    }

    private static Optional<Step> refuse(String why) {
        return Optional.of(new Step.Wait(Reason.QUORUM_RECOVERY_REFUSED, why, ClusterPlanner.LONG));
    }
}
