package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.reason.Reason;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Steps of an EtcdDefrag run. It only runs on a cluster at its target (every voter ready, no learner, nothing to
 * roll), one member per pass, followers first by name; the leader last, after MoveLeader hands its role to a follower
 * so its defragment does not stall the cluster's writes.
 */
final class Defragmentation {

    private Defragmentation() {}

    /** A started run past its deadline fails whatever the cluster is doing (a status write only). */
    static Optional<Step> overdue(ObservedCluster observed) {
        return observed.maintenance()
                .defrag()
                .filter(DefragRun::started)
                .filter(DefragRun::overdue)
                .map(run -> new Step.FinishDefrag(
                        run.name(),
                        true,
                        "not finished within " + DefragRun.DEADLINE.toMinutes() + " minutes (DeadlineExceeded)"));
    }

    static Optional<Step> next(ObservedCluster observed, Membership membership) {
        Optional<DefragRun> wanted = observed.maintenance().defrag();
        if (wanted.isEmpty()) {
            return Optional.empty();
        }
        DefragRun run = wanted.get();
        List<ObservedMember> voters = observedVoters(observed, membership);
        if (voters.size() < membership.voters().size()) {
            return Optional.of(new Step.Wait(
                    Reason.MEMBERS_NOT_READY,
                    "defrag " + run.name() + " waits until every voter" + " answers its status (" + voters.size() + "/"
                            + membership.voters().size() + ")",
                    ClusterPlanner.MEDIUM));
        }
        if (!run.started()) {
            long quota = observed.maintenance().quotaBytes();
            return Optional.of(new Step.StartDefrag(
                    run.name(),
                    voters.stream()
                            .map(m -> new Step.DefragStart(
                                    m.name(),
                                    m.isLeader(),
                                    run.criteria().wants(m.endpoint().get(), quota),
                                    m.endpoint().get().dbSize(),
                                    m.endpoint().get().dbSizeInUse()))
                            .toList()));
        }
        Map<String, DefragRun.Progress> progress = run.members();
        if (progress.values().stream().anyMatch(p -> p.leader() && p.failed())) {
            return Optional.of(new Step.FinishDefrag(run.name(), true, "the leader's defragment failed"));
        }
        Optional<ObservedMember> next = voters.stream()
                .filter(m ->
                        progress.containsKey(m.name()) && progress.get(m.name()).pending())
                .min(Comparator.comparing(ObservedMember::isLeader).thenComparing(ObservedMember::name));
        if (next.isEmpty()) {
            boolean anyFailed = progress.values().stream().anyMatch(DefragRun.Progress::failed);
            return Optional.of(
                    new Step.FinishDefrag(run.name(), anyFailed, anyFailed ? "a member's defragment failed" : ""));
        }
        ObservedMember member = next.get();
        if (member.isLeader() && voters.size() > 1) {
            Optional<Step> move = Roller.moveLeadershipOff(member, observed, membership);
            if (move.isPresent()) {
                return move;
            }
        }
        return Optional.of(new Step.Defragment(member.name(), Optional.of(run.name())));
    }

    /** Running, ready voters that answered their Maintenance Status this pass. */
    static List<ObservedMember> observedVoters(ObservedCluster observed, Membership membership) {
        return observed.running().stream()
                .filter(ObservedMember::ready)
                .filter(m -> m.endpoint().isPresent() && !m.endpoint().get().learner())
                .filter(m -> m.votesIn(membership))
                .toList();
    }
}
