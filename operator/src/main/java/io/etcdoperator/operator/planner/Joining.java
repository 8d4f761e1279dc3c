package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.planner.EtcdView.Reached;
import io.etcdoperator.operator.planner.EtcdView.Unreachable;
import io.etcdoperator.operator.planner.Step.Wait;
import io.etcdoperator.operator.reason.Reason;
import java.util.Optional;

/**
 * How members come in: the seed alone forms the cluster, and every later member joins as a learner (one at a time)
 * and is promoted once it has started; a learner that never comes up is removed. Part of {@link ClusterPlanner}.
 */
final class Joining {

    private Joining() {}

    static Step bootstrap(ObservedCluster observed, int desired) {
        if (desired == 0) {
            return new Step.Converged(Reason.PAUSED_FROM_START);
        }
        Optional<ObservedMember> seed = observed.seed();
        if (seed.isEmpty()) {
            if (observed.anyDeleting()) {
                return new Wait(
                        Reason.MEMBER_REMOVAL_IN_PROGRESS, "an earlier seed is being removed", ClusterPlanner.MEDIUM);
            }
            return new Step.CreateSeed();
        }
        ObservedMember s = seed.get();
        if (!s.controlled()) {
            return new Wait(Reason.FOREIGN_MEMBER, s.name(), ClusterPlanner.LONG);
        }
        if (s.pending()) {
            return new Step.CompleteSeed(s.name(), InitialCluster.seed(s.name(), s.peerUrl()));
        }
        if (!s.hasPod()) {
            return new Wait(
                    Reason.WAITING_FOR_SEED, "seed member " + s.name() + " has no Pod yet", ClusterPlanner.MEDIUM);
        }
        if (observed.etcd() instanceof Unreachable u) {
            // a new seed answers within a second or two of its Pod starting, and no Kubernetes event says when
            return new Wait(
                    u.reason(), u.detail(), starting(s, observed) ? ClusterPlanner.LEARNER_START : ClusterPlanner.LONG);
        }
        if (observed.etcd() instanceof Reached reached) {
            Membership m = reached.membership();
            boolean formedBySeed = m.members().size() == 1
                    && (m.members().get(0).name().equals(s.name())
                            || m.members().get(0).peerUrls().contains(s.peerUrl()));
            if (formedBySeed) {
                return new Step.LatchClusterId(m.clusterId());
            }
            return new Wait(
                    Reason.WAITING_FOR_SEED, "seed answered with an unexpected member list", ClusterPlanner.MEDIUM);
        }
        return new Wait(Reason.WAITING_FOR_SEED, "waiting for seed member " + s.name(), ClusterPlanner.MEDIUM);
    }

    static Step join(ObservedMember joiner, ObservedCluster observed, Membership membership) {
        if (membership.byPeerUrl(joiner.peerUrl()).isEmpty()) {
            if (!membership.learners().isEmpty()) {
                // etcd admits one learner at a time; the earlier one must be promoted or removed first.
                return new Wait(Reason.LEARNER_CATCHING_UP, "another learner is still joining", ClusterPlanner.SHORT);
            }
            return new Step.AddLearner(
                    joiner.name(), joiner.peerUrl(), InitialCluster.afterAdding(membership, observed, joiner));
        }
        return new Step.WriteInitialCluster(joiner.name(), InitialCluster.from(membership, observed, joiner));
    }

    static Optional<Step> promoteLearners(ObservedCluster observed, Membership membership, int desired) {
        for (Member learner : membership.learners()) {
            Optional<ObservedMember> owner = observed.ownerOf(learner);
            if (owner.isEmpty()) {
                continue; // orphans were removed before this check
            }
            boolean notStarted = !owner.get().hasPod() || !learner.started();
            boolean surge =
                    !observed.outdated().isEmpty(); // a memory roll joins one member above the target on purpose
            if (notStarted && observed.running().size() > desired && !surge) {
                // the scale-up was reverted while this learner never came up: removing a learner never costs quorum
                return Optional.of(new Step.RemoveMember(owner.get().name()));
            }
            boolean down = notStarted || !owner.get().ready();
            if (down && owner.get().created().plus(ClusterPlanner.LEARNER_STUCK).isBefore(observed.observedAt())) {
                // only one learner can be in flight: one that never comes up would block every later join and roll
                return Optional.of(new Step.RemoveStuckLearner(owner.get().name()));
            }
            if (notStarted) {
                return Optional.of(new Wait(
                        Reason.LEARNER_CATCHING_UP,
                        owner.get().name() + " has not started yet",
                        starting(owner.get(), observed) ? ClusterPlanner.LEARNER_START : ClusterPlanner.SHORT));
            }
            return Optional.of(new Step.PromoteLearner(
                    owner.get().name(),
                    learner.id(),
                    observed.running().stream()
                            .filter(ObservedMember::isLeader)
                            .map(ObservedMember::name)
                            .findFirst()));
        }
        return Optional.empty();
    }

    /** Created moments ago: its etcd is expected to answer any moment, so it is looked at often. */
    private static boolean starting(ObservedMember member, ObservedCluster observed) {
        return member.created().plus(ClusterPlanner.LEARNER_START_WINDOW).isAfter(observed.observedAt());
    }
}
