package io.etcdoperator.operator.status;

import io.etcdoperator.etcd.Alarm;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.planner.EtcdView;
import io.etcdoperator.operator.planner.ObservedCluster;
import io.etcdoperator.operator.planner.ObservedMember;
import io.etcdoperator.operator.planner.Quorum;
import io.etcdoperator.operator.planner.Refusal;
import io.etcdoperator.operator.reason.Reason;
import java.util.List;
import java.util.Optional;

/** Decides the Available / Degraded / Progressing conditions of a cluster from one pass. Pure. */
public final class ClusterHealth {

    /** One condition to set. */
    public record Verdict(boolean status, Reason reason, String message) {}

    /**
     * The three conditions plus the counts they were computed from. {@code ready} counts voters only (a learner serves
     * no linearizable read); {@code broken} counts members that joined and are down, or lost their data.
     */
    public record Report(
            Verdict available, Verdict degraded, Verdict progressing, int ready, int voters, int learners, int broken) {

        /**
         * kstatus' summary, for `kubectl wait --for=condition=Ready`, Flux and Argo CD: True only when the latched spec is
         * fully reached and the cluster is available; otherwise the reason of whatever stands in the way.
         */
        public Verdict readiness() {
            if (available.status() && !progressing.status() && !degraded.status()) {
                return new Verdict(
                        true,
                        progressing.reason(),
                        "the latched spec is reached and the cluster is available; " + available.message());
            }
            Verdict blocking = !available.status() ? available : degraded.status() ? degraded : progressing;
            return new Verdict(false, blocking.reason(), blocking.message());
        }
    }

    /**
     * @param step the reason and message of what this pass did or waits for
     * @param refusals what the operator refuses to carry out of the current spec (empty when it carries it all out)
     * @param exceeded the progress deadline passed ({@code BOOTSTRAP_FAILED} or {@code DEADLINE_EXCEEDED}), or null
     */
    public static Report assess(
            ObservedCluster observed,
            int desired,
            boolean complete,
            Reason step,
            String stepMessage,
            List<Refusal> refusals,
            Reason exceeded) {
        List<ObservedMember> running = observed.running();
        // the pass that parks the last member reports the cluster paused, as the next one will
        boolean paused = desired == 0 && (running.isEmpty() || step == Reason.PAUSING);
        boolean formed = observed.clusterId().isPresent();
        Membership membership = observed.etcd() instanceof EtcdView.Reached r ? r.membership() : null;
        int voters = observed.voterCount();
        int learners = membership != null ? membership.learners().size() : 0;
        int readyVoters = membership == null ? observed.readyRunning() : observed.readyVoters(membership);
        int ready = readyVoters;
        String counts = ready + "/" + desired + " members ready";
        Verdict available = paused
                ? new Verdict(false, Reason.PAUSED, pausedMessage(observed, formed))
                : availability(observed, desired, exceeded, step, stepMessage, readyVoters, voters, counts);

        Verdict degraded;
        long unhealthy = running.stream()
                .filter(m -> m.memberId().isPresent() && !m.ready())
                .count();
        if (!refusals.isEmpty()) {
            degraded = new Verdict(
                    true,
                    refusals.getFirst().reason(),
                    "spec change refused, target kept: "
                            + String.join(
                                    "; ",
                                    refusals.stream().map(Refusal::message).toList()));
        } else if (available.reason() == Reason.AUTH_REQUIRED_NOT_CONFIGURED
                || available.reason() == Reason.AUTH_CREDENTIALS_REJECTED) {
            degraded = new Verdict(true, available.reason(), available.message());
        } else if (paused) {
            degraded = new Verdict(false, Reason.PAUSED, available.message());
        } else if (available.reason() == Reason.QUORUM_LOST || available.reason() == Reason.ALL_MEMBERS_LOST) {
            degraded = new Verdict(true, available.reason(), available.message());
        } else if (!observed.maintenance().alarms().isEmpty()) {
            boolean corrupt = observed.maintenance().has(Alarm.Kind.CORRUPT);
            Reason why = corrupt
                    ? Reason.DATA_CORRUPTED
                    : step == Reason.SPACE_QUOTA_FULL ? Reason.SPACE_QUOTA_FULL : Reason.SPACE_QUOTA_EXCEEDED;
            degraded = new Verdict(
                    true, why, "etcd alarms " + observed.maintenance().alarms() + "; " + why.description());
        } else if (step == Reason.VOLUME_EXPANSION_UNSUPPORTED
                || step == Reason.CLUSTER_ID_MISMATCH
                || step == Reason.RESOURCE_CONFLICT) {
            degraded = new Verdict(true, step, stepMessage);
        } else if (exceeded == Reason.UPGRADE_STALLED) {
            degraded = new Verdict(true, exceeded, exceededMessage(exceeded, desired, counts));
        } else if (unhealthy > 0) {
            degraded = new Verdict(true, Reason.MEMBERS_UNHEALTHY, unhealthy + " member(s) not ready; " + counts);
        } else {
            degraded = new Verdict(false, Reason.QUORUM_HEALTHY, counts);
        }

        Verdict progressing;
        if (paused) {
            progressing = new Verdict(false, Reason.PAUSED, available.message());
        } else if (exceeded != null) {
            progressing = new Verdict(
                    false,
                    exceeded,
                    switch (exceeded) {
                        case BOOTSTRAP_FAILED ->
                            "bootstrap deadline exceeded; delete and recreate the cluster to recover";
                        case UPGRADE_STALLED ->
                            "upgrade stopped with quorum kept; set spec.version back to roll the moved members "
                                    + "back, or fix the cause and move status.progressDeadline to retry";
                        default -> "deadline exceeded; change the spec or move status.progressDeadline to retry";
                    });
        } else if (complete) {
            progressing = new Verdict(false, Reason.RECONCILED, Reason.RECONCILED.description());
        } else {
            progressing = new Verdict(true, step, stepMessage);
        }
        int broken = (int) running.stream()
                .filter(m -> m.podLost() || (m.memberId().isPresent() && !m.ready()))
                .count();
        return new Report(available, degraded, progressing, ready, voters, learners, broken);
    }

    /** Available: the quorum in etcd's own member list, or, when etcd cannot be reached, what the Pods say of it. */
    private static Verdict availability(
            ObservedCluster observed,
            int desired,
            Reason exceeded,
            Reason step,
            String stepMessage,
            int readyVoters,
            int voters,
            String counts) {
        if (exceeded != null && exceeded != Reason.UPGRADE_STALLED) { // a stalled upgrade keeps quorum
            return new Verdict(false, exceeded, exceededMessage(exceeded, desired, counts));
        }
        if (step == Reason.ALL_MEMBERS_LOST || step == Reason.CLUSTER_RESET) { // no etcd to reach: say why
            return new Verdict(false, step, stepMessage);
        }
        if (observed.etcd() instanceof EtcdView.Unreachable u) {
            return leaderless(observed)
                    .map(pods -> quorumLost(pods + " and the operator cannot reach etcd (" + u.detail() + ")"))
                    .orElseGet(() -> new Verdict(false, u.reason(), u.detail()));
        }
        if (observed.clusterId().isEmpty()) {
            return new Verdict(false, step, stepMessage);
        }
        if (Quorum.holds(readyVoters, voters)) {
            boolean all = readyVoters == observed.running().size()
                    && observed.running().size() == desired;
            return new Verdict(true, all ? Reason.QUORUM_HEALTHY : Reason.QUORUM_AVAILABLE, counts);
        }
        return quorumLost(counts);
    }

    private static Verdict quorumLost(String evidence) {
        return new Verdict(
                false,
                Reason.QUORUM_LOST,
                evidence + ", quorum lost; if the other members cannot come back, "
                        + "annotate the EtcdCluster with etcd-operator.cozystack.io/force-new-cluster-from=<member> to restart from "
                        + "that member's data (docs/operations.md)");
    }

    /**
     * etcd unreachable alone may be the operator's own trouble (a Secret, DNS, a NetworkPolicy); with most voter Pods
     * of a formed multi-member cluster unready as well, the kubelet's probes agree that etcd has no leader. A member
     * restarted without a quorum answers no client at all, so etcd's own member list is out of reach then.
     */
    private static Optional<String> leaderless(ObservedCluster observed) {
        List<ObservedMember> voters =
                observed.running().stream().filter(ObservedMember::voterMark).toList();
        int podsReady = (int) voters.stream().filter(ObservedMember::podReady).count();
        if (observed.clusterId().isEmpty() || voters.size() < 2 || Quorum.holds(podsReady, voters.size())) {
            return Optional.empty();
        }
        return Optional.of(podsReady + "/" + voters.size() + " voter Pods are ready");
    }

    private static String exceededMessage(Reason exceeded, int desired, String counts) {
        return switch (exceeded) {
            case BOOTSTRAP_FAILED ->
                "could not bootstrap a " + desired + "-member cluster within the progress deadline";
            case UPGRADE_STALLED ->
                "a member did not come back on the new version within the progress deadline; " + counts;
            default -> "could not reach the target of " + desired + " members within the progress deadline; " + counts;
        };
    }

    private static String pausedMessage(ObservedCluster observed, boolean formed) {
        if (!formed) {
            return "cluster is paused; no data has been written (cluster never bootstrapped)";
        }
        return observed.dormant().stream()
                .findFirst()
                .map(m -> "cluster is paused; data is preserved on PVC data-" + m.name())
                .orElse("cluster is paused");
    }
}
