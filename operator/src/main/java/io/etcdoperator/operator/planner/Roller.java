package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.planner.Step.Wait;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.reason.RestartReason;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The roll of members whose Pod is not what the latched target builds. One member at a time: members that are down
 * first (restarting them costs no quorum), then followers by name, the leader last after MoveLeader to an up-to-date
 * voter; a healthy member only while every other voter is settled and quorum holds without it. PVC members restart
 * in place (same member id and data); memory members are replaced through a new learner, since a restart on tmpfs
 * loses the data. See docs/operations.md#rolling.
 */
final class Roller {

    /** How long a voter whose etcd was OOM-killed in its current Pod stays Ready before the roll goes on. */
    static final Duration OOM_KILLED_MIN_READY = Duration.ofMinutes(5);

    private Roller() {}

    static Optional<Step> next(ObservedCluster observed, Membership membership, Duration minReady) {
        List<ObservedMember> outdated = observed.outdated().stream()
                .sorted(Comparator.comparing(ObservedMember::name))
                .toList();
        if (outdated.isEmpty()) {
            return Optional.empty();
        }
        Optional<ObservedMember> down =
                outdated.stream().filter(m -> !m.ready()).findFirst();
        if (down.isPresent()) {
            return Optional.of(rollDown(down.get(), observed, membership));
        }
        ObservedMember candidate = outdated.stream()
                .min(Comparator.comparing(ObservedMember::isLeader))
                .orElseThrow();
        Optional<ObservedMember> unsettled = voters(observed, membership).stream()
                .filter(m -> !m.name().equals(candidate.name()) && !m.settled())
                .findFirst();
        if (unsettled.isPresent() && unsettled.get().broken().isPresent()) {
            return Optional.of(ClusterPlanner.crashLooping(observed)
                    .map(w -> new Wait(w.reason(), "the roll stops: " + w.detail(), w.recheck()))
                    .orElseGet(() -> new Wait(
                            Reason.ROLL_WAITING_FOR_HEALTH,
                            candidate.name() + " waits until " + unsettled.get().name() + " is ready",
                            ClusterPlanner.SHORT)));
        }
        if (unsettled.isPresent()) {
            return Optional.of(new Wait(
                    Reason.ROLL_WAITING_FOR_HEALTH,
                    candidate.name() + " waits until " + unsettled.get().name() + " is ready on its spec version",
                    ClusterPlanner.SHORT));
        }
        Optional<Step> settling = settling(candidate, observed, membership, minReady);
        if (settling.isPresent()) {
            return settling;
        }
        int voters = membership.voters().size();
        // a single member has no quorum to protect: restarting it is the downtime the user asked for
        if (voters > 1 && !Quorum.holds(observed.readyVoters(membership) - 1, voters)) {
            return Optional.of(new Wait(
                    Reason.QUORUM_AT_RISK,
                    "restarting " + candidate.name() + " now would lose quorum",
                    ClusterPlanner.LONG));
        }
        RestartReason why = candidate.outdated().orElseThrow();
        if (candidate.memory()) {
            return Optional.of(new Step.ReplaceMember(candidate.name(), why));
        }
        return Optional.of(moveLeadershipOff(candidate, observed, membership)
                .orElseGet(() -> new Step.RestartMember(candidate.name(), why)));
    }

    /** A down PVC member restarts at once; a down memory member has nothing worth keeping and goes first. */
    private static Step rollDown(ObservedMember member, ObservedCluster observed, Membership membership) {
        if (!member.memory()) {
            return new Step.RestartMember(member.name(), member.outdated().orElseThrow());
        }
        if (!observed.quorumSurvivesRemoval(member, membership)) {
            return new Wait(
                    Reason.QUORUM_AT_RISK, "removing " + member.name() + " now would lose quorum", ClusterPlanner.LONG);
        }
        return new Step.RetireMember(member.name(), member.outdated().orElseThrow());
    }

    /** The surplus outdated memory member goes once every other member is ready, and never while it leads. */
    static Step retire(ObservedMember victim, ObservedCluster observed, Membership membership, Duration minReady) {
        Optional<ObservedMember> unready = observed.running().stream()
                .filter(m -> !m.name().equals(victim.name()) && !m.settled())
                .findFirst();
        if (unready.isPresent()) {
            return new Wait(
                    Reason.MEMBERS_NOT_READY,
                    victim.name() + " is retired once " + unready.get().name() + " is ready",
                    ClusterPlanner.SHORT);
        }
        return settling(victim, observed, membership, minReady)
                .or(() -> moveLeadershipOff(victim, observed, membership))
                .orElseGet(() ->
                        new Step.RetireMember(victim.name(), victim.outdated().orElseThrow()));
    }

    /**
     * A voter Ready for less than {@code minReady} may still fall over (an OOM under load, a bad flag that bites late):
     * no other member restarts or goes until it has stood that long; one whose etcd was OOM-killed in its current Pod,
     * for {@link #OOM_KILLED_MIN_READY} (failed first starts, say while peers change TLS, do not count). Zero: no wait.
     */
    private static Optional<Step> settling(
            ObservedMember candidate, ObservedCluster observed, Membership membership, Duration minReady) {
        if (minReady.isZero()) {
            return Optional.empty();
        }
        return voters(observed, membership).stream()
                .filter(m -> !m.name().equals(candidate.name()))
                .flatMap(m -> m.readyPod().stream().flatMap(pod -> {
                    Duration needed = pod.oomKilled() ? max(minReady, OOM_KILLED_MIN_READY) : minReady;
                    Duration left =
                            Duration.between(observed.observedAt(), pod.since().plus(needed));
                    String restarted = pod.oomKilled() ? ": its etcd was OOM-killed in this Pod" : "";
                    return left.isPositive()
                            ? Stream.of((Step) new Wait(
                                    Reason.ROLL_WAITING_FOR_HEALTH,
                                    candidate.name() + " waits until " + m.name() + " has been ready for "
                                            + needed.toSeconds() + " s" + restarted,
                                    left))
                            : Stream.<Step>empty();
                }))
                .findFirst();
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** MoveLeader to a settled voter, preferring one already on the target; empty when the member does not lead. */
    static Optional<Step> moveLeadershipOff(ObservedMember member, ObservedCluster observed, Membership membership) {
        if (!member.isLeader()) {
            return Optional.empty();
        }
        return voters(observed, membership).stream()
                .filter(m -> !m.name().equals(member.name()) && m.settled())
                .min(Comparator.comparing((ObservedMember m) -> m.outdated().isPresent())
                        .thenComparing(ObservedMember::name))
                .flatMap(t -> t.entryIn(membership)
                        .map(entry -> (Step) new Step.MoveLeader(member.name(), t.name(), entry.id())));
    }

    private static List<ObservedMember> voters(ObservedCluster observed, Membership membership) {
        return observed.running().stream().filter(m -> m.votesIn(membership)).toList();
    }
}
