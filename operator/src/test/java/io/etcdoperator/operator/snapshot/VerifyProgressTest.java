package io.etcdoperator.operator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.snapshot.SnapshotProgress.JobState;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VerifyProgressTest {

    private static final Optional<String> VERSION = Optional.of("3.5.16");

    @Test
    void aCompleteSnapshotToVerifyGetsOneJobAndVerifyingUnknown() {
        var d = VerifyProgress.decide(observe(Optional.empty(), Optional.empty(), new JobState.Absent()));
        assertThat(d.createJob()).isTrue();
        assertThat(d.verdict())
                .get()
                .extracting(VerifyProgress.Verdict::status, VerifyProgress.Verdict::reason)
                .containsExactly("Unknown", "Verifying");
    }

    @Test
    void matchingNumbersSettleTrueWithThemInTheMessage() {
        String line = "{\"result\":\"verified\",\"uri\":\"file:///s/n.db\",\"sizeBytes\":20512,\"checksum\":\"sha256:"
                + "ab".repeat(32) + "\",\"dbHash\":\"79851ed4\",\"dbRevision\":22,\"dbTotalKeys\":27,"
                + "\"restoredRevision\":1000000022,\"message\":\"revision 22, 27 keys, hash 79851ed4; restores to revision "
                + "1000000022\"}";
        var d = VerifyProgress.decide(observe(
                Optional.of("Unknown"),
                Optional.of("Verifying"),
                new JobState.Succeeded(AgentReport.parse(line), Instant.EPOCH)));
        assertThat(d.verdict()).get().satisfies(v -> {
            assertThat(v.status()).isEqualTo("True");
            assertThat(v.reason()).isEqualTo("SnapshotVerified");
            assertThat(v.message()).contains("revision 22", "27 keys", "hash 79851ed4");
        });
        assertThat(d.recheck()).isEmpty();
    }

    @Test
    void mismatchedNumbersOrAFlippedFileSettleVerificationFailed() {
        for (String reason :
                new String[] {"VerificationFailed", "ChecksumMismatch", "RestoreToolFailed", "DecryptionFailed"}) {
            var d = VerifyProgress.decide(observe(
                    Optional.of("Unknown"),
                    Optional.of("Verifying"),
                    failed(reason, "hash 1 but the save recorded 79851ed4")));
            assertThat(d.verdict()).get().satisfies(v -> {
                assertThat(v.status()).isEqualTo("False");
                assertThat(v.reason()).as(reason).isEqualTo("VerificationFailed");
                assertThat(v.message()).startsWith(reason + ": ");
            });
        }
    }

    @Test
    void anObjectThatCannotBeReadSettlesArtifactUnreadable() {
        for (String reason : new String[] {"SnapshotNotFound", "CredentialsRejected", "EncryptionKeyMissing"}) {
            var d = VerifyProgress.decide(
                    observe(Optional.of("Unknown"), Optional.of("Verifying"), failed(reason, "x")));
            assertThat(d.verdict().orElseThrow().reason()).as(reason).isEqualTo("ArtifactUnreadable");
        }
        var noReport = VerifyProgress.decide(observe(
                Optional.of("Unknown"),
                Optional.of("Verifying"),
                new JobState.Succeeded(Optional.empty(), Instant.EPOCH)));
        assertThat(noReport.verdict().orElseThrow().reason()).isEqualTo("ArtifactUnreadable");
    }

    @Test
    void settledOrUnwantedDoesNothingAndALostJobIsNotRerun() {
        assertThat(VerifyProgress.decide(
                                observe(Optional.of("False"), Optional.of("VerificationFailed"), new JobState.Absent()))
                        .createJob())
                .isFalse();
        var notWanted = new VerifyProgress.Observation(
                false, Optional.empty(), Optional.empty(), VERSION, new JobState.Absent());
        assertThat(VerifyProgress.decide(notWanted).createJob()).isFalse();
        var lost =
                VerifyProgress.decide(observe(Optional.of("Unknown"), Optional.of("Verifying"), new JobState.Absent()));
        assertThat(lost.createJob()).isFalse();
        assertThat(lost.verdict().orElseThrow().reason()).isEqualTo("VerifyJobLost");
    }

    private static VerifyProgress.Observation observe(Optional<String> status, Optional<String> reason, JobState job) {
        return new VerifyProgress.Observation(true, status, reason, VERSION, job);
    }

    private static JobState failed(String reason, String message) {
        return new JobState.Failed(
                "BackoffLimitExceeded",
                AgentReport.parse(
                        "{\"result\":\"failed\",\"reason\":\"" + reason + "\",\"message\":\"" + message + "\"}"));
    }
}
