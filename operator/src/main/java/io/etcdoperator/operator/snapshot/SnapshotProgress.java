package io.etcdoperator.operator.snapshot;

import io.etcdoperator.api.v1alpha2.EtcdSnapshotStatus;
import io.etcdoperator.operator.reason.Reason;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The EtcdSnapshot state machine, pure: from what one pass observed to the next step. Pending until the Job exists,
 * Started while it runs, then Complete or Failed for good. The Job is created at most once: a Started snapshot whose
 * Job vanished fails rather than running a second time.
 */
public final class SnapshotProgress {

    /** How long a snapshot may wait for its cluster to be reachable or for auth to latch. */
    static final Duration CLUSTER_PATIENCE = Duration.ofMinutes(15);
    /** How long a succeeded Job's termination message may stay unreadable (Pod status lagging) before giving up. */
    static final Duration REPORT_PATIENCE = Duration.ofMinutes(2);

    static final Duration POLL = Duration.ofSeconds(10);
    static final Duration SOON = Duration.ofSeconds(2);

    /** The parent cluster as the Job needs it. */
    public enum ClusterState {
        MISSING,
        NO_VOTERS,
        AUTH_NOT_LATCHED,
        READY
    }

    /** The snapshot's save Job. */
    public sealed interface JobState {
        record Absent() implements JobState {}

        /** Running; {@code lastAttempt} is a failed attempt's report, if one already failed and the Job retries. */
        record Running(Optional<AgentReport> lastAttempt) implements JobState {}

        record Succeeded(Optional<AgentReport> report, Instant completedAt) implements JobState {}

        record Failed(String jobMessage, Optional<AgentReport> lastAttempt) implements JobState {}
    }

    public record Observation(
            String phase,
            Instant created,
            Instant now,
            boolean operatorImage,
            Optional<String> destinationProblem,
            ClusterState cluster,
            JobState job) {}

    /** What to do: create the Job, or write this phase/condition and look again after {@code recheck} (if any). */
    public record Decision(
            boolean createJob,
            String phase,
            String reason,
            String message,
            Optional<AgentReport> artifact,
            Optional<Duration> recheck) {

        static Decision waiting(String phase, String reason, String message, Duration recheck) {
            return new Decision(false, phase, reason, message, Optional.empty(), Optional.of(recheck));
        }

        static Decision failed(String reason, String message) {
            return new Decision(
                    false, EtcdSnapshotStatus.PHASE_FAILED, reason, message, Optional.empty(), Optional.empty());
        }

        public boolean terminal() {
            return EtcdSnapshotStatus.PHASE_COMPLETE.equals(phase) || EtcdSnapshotStatus.PHASE_FAILED.equals(phase);
        }
    }

    private SnapshotProgress() {}

    public static boolean terminal(String phase) {
        return EtcdSnapshotStatus.PHASE_COMPLETE.equals(phase) || EtcdSnapshotStatus.PHASE_FAILED.equals(phase);
    }

    public static Decision decide(Observation o) {
        if (o.phase() == null || o.phase().isEmpty()) {
            return Decision.waiting(
                    EtcdSnapshotStatus.PHASE_PENDING, Reason.PENDING.reason(), "snapshot accepted", SOON);
        }
        return switch (o.job()) {
            case JobState.Absent absent -> beforeJob(o);
            case JobState.Running running ->
                Decision.waiting(
                        EtcdSnapshotStatus.PHASE_STARTED,
                        Reason.JOB_RUNNING.reason(),
                        running.lastAttempt()
                                .map(r -> "agent retrying after: " + describe(r))
                                .orElse("snapshot agent running"),
                        POLL);
            case JobState.Failed failed ->
                Decision.failed(
                        failed.lastAttempt().flatMap(AgentReport::reason).orElse(Reason.JOB_FAILED.reason()),
                        failed.lastAttempt()
                                .map(SnapshotProgress::describe)
                                .orElse("snapshot Job failed: " + failed.jobMessage()));
            case JobState.Succeeded done -> finished(o, done);
        };
    }

    private static Decision beforeJob(Observation o) {
        if (EtcdSnapshotStatus.PHASE_STARTED.equals(o.phase())) {
            return Decision.failed(
                    Reason.SNAPSHOT_JOB_LOST.reason(),
                    "the snapshot Job disappeared before it finished; not re-running it, to avoid a second snapshot");
        }
        if (!o.operatorImage()) {
            return Decision.failed(
                    Reason.OPERATOR_IMAGE_NOT_CONFIGURED.reason(),
                    "the operator has no --operator-image (OPERATOR_IMAGE) to run the snapshot agent with");
        }
        if (o.destinationProblem().isPresent()) {
            return Decision.failed(
                    Reason.INVALID_DESTINATION.reason(), o.destinationProblem().get());
        }
        boolean patienceLeft = o.now().isBefore(o.created().plus(CLUSTER_PATIENCE));
        return switch (o.cluster()) {
            case MISSING ->
                Decision.failed(Reason.CLUSTER_NOT_FOUND.reason(), "EtcdCluster not found in this namespace");
            case NO_VOTERS ->
                patienceLeft
                        ? Decision.waiting(
                                EtcdSnapshotStatus.PHASE_PENDING,
                                Reason.WAITING_FOR_CLUSTER.reason(),
                                "waiting for the cluster to have a running voter",
                                POLL)
                        : Decision.failed(
                                Reason.CLUSTER_NOT_READY.reason(),
                                "the cluster had no running voter for " + CLUSTER_PATIENCE.toMinutes() + " minutes");
            case AUTH_NOT_LATCHED ->
                patienceLeft
                        ? Decision.waiting(
                                EtcdSnapshotStatus.PHASE_PENDING,
                                Reason.WAITING_FOR_AUTH.reason(),
                                "waiting for the cluster to enable etcd authentication (status.authEnabled)",
                                POLL)
                        : Decision.failed(
                                Reason.AUTH_LATCH_TIMEOUT.reason(),
                                "etcd authentication was not enabled within " + CLUSTER_PATIENCE.toMinutes()
                                        + " minutes");
            case READY ->
                new Decision(
                        true,
                        EtcdSnapshotStatus.PHASE_STARTED,
                        Reason.JOB_CREATED.reason(),
                        "snapshot Job created",
                        Optional.empty(),
                        Optional.of(POLL));
        };
    }

    private static Decision finished(Observation o, JobState.Succeeded done) {
        Optional<AgentReport> stored = done.report().filter(AgentReport::stored);
        if (stored.isPresent()) {
            AgentReport r = stored.get();
            return new Decision(
                    false,
                    EtcdSnapshotStatus.PHASE_COMPLETE,
                    Reason.SNAPSHOT_STORED.reason(),
                    "stored " + r.uri().orElseThrow() + " (" + r.sizeBytes().orElseThrow() + " bytes)" + from(r),
                    stored,
                    Optional.empty());
        }
        if (o.now().isBefore(done.completedAt().plus(REPORT_PATIENCE))) {
            return Decision.waiting(
                    EtcdSnapshotStatus.PHASE_STARTED,
                    Reason.READING_ARTIFACT.reason(),
                    "Job succeeded; waiting for the agent's termination message",
                    SOON);
        }
        return Decision.failed(
                Reason.ARTIFACT_UNREADABLE.reason(),
                "the Job succeeded but no Pod carries the agent's result (Pods deleted?); the object may exist");
    }

    /** Where the bytes came from, so a reader sees at once whether the leader answered. */
    private static String from(AgentReport r) {
        return r.source()
                .map(s -> " from " + (s.leader() ? "the leader " : "follower ") + s.endpoint()
                        + s.revision().map(rev -> " at revision " + rev).orElse(""))
                .orElse("");
    }

    private static String describe(AgentReport r) {
        return r.reason().orElse(r.result()) + r.message().map(m -> ": " + m).orElse("");
    }
}
