package io.etcdoperator.operator.snapshot;

import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.snapshot.SnapshotProgress.JobState;
import java.time.Duration;
import java.util.Optional;

/**
 * The verification of a Complete EtcdSnapshot, pure: create the verify Job once, then turn its report into the
 * Verified condition. A separate Job from the save, so a stored snapshot stays Complete whatever the verify finds,
 * and deleting a failed verify Job (with its condition) retries it without a second snapshot.
 */
public final class VerifyProgress {

    static final Duration POLL = Duration.ofSeconds(10);

    /**
     * @param verified the Verified condition's status ("True", "False", "Unknown") and reason, if set
     * @param etcdVersion the cluster's version, which picks the tool; empty when the cluster is gone
     */
    public record Observation(
            boolean wanted,
            Optional<String> verifiedStatus,
            Optional<String> verifiedReason,
            Optional<String> etcdVersion,
            JobState job) {}

    /** {@code status} is "True", "False" or "Unknown"; {@code settled} when the result is final (counted once). */
    public record Decision(boolean createJob, Optional<Verdict> verdict, Optional<Duration> recheck) {}

    public record Verdict(String status, String reason, String message) {
        public boolean settled() {
            return !"Unknown".equals(status);
        }
    }

    private static final Decision NOTHING = new Decision(false, Optional.empty(), Optional.empty());

    private VerifyProgress() {}

    public static Decision decide(Observation o) {
        boolean settled = o.verifiedStatus().filter(s -> !"Unknown".equals(s)).isPresent();
        if (!o.wanted() || settled) {
            return NOTHING;
        }
        return switch (o.job()) {
            case JobState.Absent absent -> beforeJob(o);
            case JobState.Running running ->
                waiting("verify Job running"
                        + running.lastAttempt()
                                .map(r -> "; retrying after: " + describe(r))
                                .orElse(""));
            case JobState.Failed failed ->
                settle(
                        "False",
                        failed.lastAttempt()
                                .map(VerifyProgress::failureReason)
                                .orElse(Reason.VERIFICATION_FAILED.reason()),
                        failed.lastAttempt()
                                .map(VerifyProgress::describe)
                                .orElse("verify Job failed: " + failed.jobMessage()));
            case JobState.Succeeded done ->
                done.report()
                        .filter(AgentReport::verified)
                        .map(r -> settle(
                                "True",
                                Reason.SNAPSHOT_VERIFIED.reason(),
                                r.message().orElse("verified")))
                        .orElse(settle(
                                "False",
                                Reason.ARTIFACT_UNREADABLE.reason(),
                                "the verify Job succeeded but its report could not be read"));
        };
    }

    /**
     * Could not read the object at all (gone, no access, no key): ArtifactUnreadable. Read but wrong (checksum, bbolt
     * damage, a failed restore, other numbers): VerificationFailed.
     */
    static String failureReason(AgentReport report) {
        return switch (report.reason().orElse("")) {
            case "SnapshotNotFound", "BucketNotFound", "CredentialsRejected", "EncryptionKeyMissing", "StorageError" ->
                Reason.ARTIFACT_UNREADABLE.reason();
            default -> Reason.VERIFICATION_FAILED.reason();
        };
    }

    private static Decision beforeJob(Observation o) {
        if (o.verifiedReason().filter(Reason.VERIFYING.reason()::equals).isPresent()) {
            return settle("False", Reason.VERIFY_JOB_LOST.reason(), "the verify Job disappeared before it reported");
        }
        if (o.etcdVersion().isEmpty()) {
            return settle(
                    "False",
                    Reason.CLUSTER_NOT_FOUND.reason(),
                    "the cluster is gone, so the etcd version (which picks the restore tool) is unknown");
        }
        return new Decision(
                true,
                Optional.of(new Verdict("Unknown", Reason.VERIFYING.reason(), "verify Job created")),
                Optional.of(POLL));
    }

    private static Decision waiting(String message) {
        return new Decision(
                false, Optional.of(new Verdict("Unknown", Reason.VERIFYING.reason(), message)), Optional.of(POLL));
    }

    private static Decision settle(String status, String reason, String message) {
        return new Decision(false, Optional.of(new Verdict(status, reason, message)), Optional.empty());
    }

    private static String describe(AgentReport r) {
        return r.reason().orElse(r.result()) + r.message().map(m -> ": " + m).orElse("");
    }
}
