package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.planner.Maintenance.QuorumRecovery;
import io.etcdoperator.operator.reason.Reason;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Recovery from a lost quorum, only when a person names the member to restart from: that member starts once with
 * --force-new-cluster (etcd drops every other member and keeps the cluster id and the member's data), the others are
 * discarded with their volumes, then the flag goes and scale-up joins new members as learners. docs/operations.md
 * has the runbook; etcd's own rules are in docs/concepts.md.
 */
final class QuorumLoss {

  private QuorumLoss() {}

  static Optional<Step> next(ObservedCluster observed) {
    Optional<QuorumRecovery> asked = observed.maintenance().recovery();
    if (asked.isEmpty()) {
      return Optional.empty();
    }
    QuorumRecovery recovery = asked.get();
    Optional<ObservedMember> survivor = observed.byName(recovery.from()).filter(ObservedMember::running);
    if (survivor.isEmpty()) {
      return refuse("no running member " + recovery.from() + " of this cluster");
    }
    if (survivor.get().memory()) {
      return refuse(recovery.from() + " keeps its data in memory: a restart with --force-new-cluster would lose it");
    }
    if (recovery.flagged().isEmpty()) {
      return start(observed, survivor.get());
    }
    if (!(observed.etcd() instanceof EtcdView.Reached reached)) {
      return Optional.of(new Step.Wait(Reason.QUORUM_RECOVERY, "waiting for " + recovery.from()
          + " to start as a one-member cluster", ClusterPlanner.MEDIUM));
    }
    Membership membership = reached.membership();
    boolean alone = membership.members().size() == 1
        && membership.members().getFirst().peerUrls().contains(survivor.get().peerUrl());
    if (!alone) {
      return Optional.of(new Step.Wait(Reason.QUORUM_RECOVERY, "etcd still lists " + membership.members().size()
          + " members; waiting for " + recovery.from() + " to restart with --force-new-cluster", ClusterPlanner.MEDIUM));
    }
    List<ObservedMember> others = observed.members().stream()
        .filter(m -> !m.name().equals(recovery.from()) && !m.deleting())
        .sorted(Comparator.comparing(ObservedMember::name)).toList();
    if (!others.isEmpty()) {
      return Optional.of(new Step.DiscardMembers(others.stream().map(ObservedMember::name).toList(), recovery.from()));
    }
    if (observed.anyDeleting()) {
      return Optional.of(new Step.Wait(Reason.QUORUM_RECOVERY, "discarded members are being deleted",
          ClusterPlanner.MEDIUM));
    }
    return Optional.of(new Step.EndForceNewCluster(recovery.from()));
  }

  /** Never on a cluster that still has its quorum: forcing it would throw away what the others acknowledged. */
  private static Optional<Step> start(ObservedCluster observed, ObservedMember survivor) {
    int voters = (int) observed.running().stream().filter(ObservedMember::voterMark).count();
    int ready = (int) observed.running().stream().filter(m -> m.voterMark() && m.ready()).count();
    if (observed.etcd() instanceof EtcdView.Reached && Quorum.holds(ready, voters)) {
      return refuse("the cluster has its quorum (" + ready + "/" + voters + " voters ready); remove the annotation");
    }
    if (!survivor.hasPod()) {
      return refuse(survivor.name() + " has no Pod; its volume must be attached to restart from it");
    }
    return Optional.of(new Step.ForceNewCluster(survivor.name()));
  }

  private static Optional<Step> refuse(String why) {
    return Optional.of(new Step.Wait(Reason.QUORUM_RECOVERY_REFUSED, why, ClusterPlanner.LONG));
  }
}
