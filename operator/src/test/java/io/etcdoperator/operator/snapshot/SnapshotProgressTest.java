package io.etcdoperator.operator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.snapshot.SnapshotProgress.ClusterState;
import io.etcdoperator.operator.snapshot.SnapshotProgress.Decision;
import io.etcdoperator.operator.snapshot.SnapshotProgress.JobState;
import io.etcdoperator.operator.snapshot.SnapshotProgress.Observation;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The snapshot state machine as a table: what was observed → phase, Ready reason, whether to create the Job. */
class SnapshotProgressTest {

    private static final Instant CREATED = Instant.parse("2026-11-22T10:00:00Z");
    private static final Instant SOON = CREATED.plusSeconds(30);
    private static final Instant LATE = CREATED.plus(Duration.ofMinutes(16));
    private static final AgentReport STORED = AgentReport.parse(
                    "{\"result\":\"stored\",\"uri\":\"s3://etcd-backups/prod/a.db\",\"sizeBytes\":4096,\"checksum\":\"sha256:ab\"}")
            .orElseThrow();
    private static final AgentReport BUCKET_MISSING = AgentReport.parse(
                    "{\"result\":\"failed\",\"reason\":\"BucketNotFound\",\"message\":\"bucket etcd-backups does not exist\"}")
            .orElseThrow();

    private static Observation seen(
            String phase,
            Instant now,
            boolean image,
            Optional<String> destination,
            ClusterState cluster,
            JobState job) {
        return new Observation(phase, CREATED, now, image, destination, cluster, job);
    }

    private static Observation seen(String phase, ClusterState cluster, JobState job) {
        return seen(phase, SOON, true, Optional.empty(), cluster, job);
    }

    static Stream<Arguments> table() {
        JobState absent = new JobState.Absent();
        return Stream.of(
                // new object: Pending first, nothing else yet
                Arguments.of("new", seen(null, ClusterState.READY, absent), "Pending", "Pending", false),
                Arguments.of(
                        "ready cluster", seen("Pending", ClusterState.READY, absent), "Started", "JobCreated", true),
                Arguments.of(
                        "no operator image",
                        seen("Pending", SOON, false, Optional.empty(), ClusterState.READY, absent),
                        "Failed",
                        "OperatorImageNotConfigured",
                        false),
                Arguments.of(
                        "bad destination",
                        seen(
                                "Pending",
                                SOON,
                                true,
                                Optional.of("spec.destination: no s3 or pvc"),
                                ClusterState.READY,
                                absent),
                        "Failed",
                        "InvalidDestination",
                        false),
                Arguments.of(
                        "cluster missing",
                        seen("Pending", ClusterState.MISSING, absent),
                        "Failed",
                        "ClusterNotFound",
                        false),
                Arguments.of(
                        "no voter yet",
                        seen("Pending", ClusterState.NO_VOTERS, absent),
                        "Pending",
                        "WaitingForCluster",
                        false),
                Arguments.of(
                        "no voter for too long",
                        seen("Pending", LATE, true, Optional.empty(), ClusterState.NO_VOTERS, absent),
                        "Failed",
                        "ClusterNotReady",
                        false),
                Arguments.of(
                        "auth not latched",
                        seen("Pending", ClusterState.AUTH_NOT_LATCHED, absent),
                        "Pending",
                        "WaitingForAuth",
                        false),
                Arguments.of(
                        "auth never latched",
                        seen("Pending", LATE, true, Optional.empty(), ClusterState.AUTH_NOT_LATCHED, absent),
                        "Failed",
                        "AuthLatchTimeout",
                        false),
                Arguments.of(
                        "Job vanished after start",
                        seen("Started", ClusterState.READY, absent),
                        "Failed",
                        "SnapshotJobLost",
                        false),
                Arguments.of(
                        "Job running",
                        seen("Started", ClusterState.READY, new JobState.Running(Optional.empty())),
                        "Started",
                        "JobRunning",
                        false),
                Arguments.of(
                        "Job retrying",
                        seen("Started", ClusterState.READY, new JobState.Running(Optional.of(BUCKET_MISSING))),
                        "Started",
                        "JobRunning",
                        false),
                Arguments.of(
                        "Job failed with agent reason",
                        seen(
                                "Started",
                                ClusterState.READY,
                                new JobState.Failed(
                                        "BackoffLimitExceeded: too many failures", Optional.of(BUCKET_MISSING))),
                        "Failed",
                        "BucketNotFound",
                        false),
                Arguments.of(
                        "Job failed without report",
                        seen(
                                "Started",
                                ClusterState.READY,
                                new JobState.Failed("DeadlineExceeded: active deadline", Optional.empty())),
                        "Failed",
                        "JobFailed",
                        false),
                Arguments.of(
                        "Job succeeded",
                        seen("Started", ClusterState.READY, new JobState.Succeeded(Optional.of(STORED), SOON)),
                        "Complete",
                        "SnapshotStored",
                        false),
                Arguments.of(
                        "succeeded, message not yet visible",
                        seen("Started", ClusterState.READY, new JobState.Succeeded(Optional.empty(), SOON)),
                        "Started",
                        "ReadingArtifact",
                        false),
                Arguments.of(
                        "succeeded, message never visible",
                        seen(
                                "Started",
                                LATE,
                                true,
                                Optional.empty(),
                                ClusterState.READY,
                                new JobState.Succeeded(Optional.empty(), SOON)),
                        "Failed",
                        "ArtifactUnreadable",
                        false),
                // a Job the cluster state no longer allows is still followed to its end
                Arguments.of(
                        "cluster gone while running",
                        seen("Started", ClusterState.MISSING, new JobState.Running(Optional.empty())),
                        "Started",
                        "JobRunning",
                        false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void decides(String name, Observation observation, String phase, String reason, boolean createJob) {
        Decision decision = SnapshotProgress.decide(observation);

        assertThat(decision.phase()).isEqualTo(phase);
        assertThat(decision.reason()).isEqualTo(reason);
        assertThat(decision.createJob()).isEqualTo(createJob);
        assertThat(decision.recheck().isEmpty())
                .as("terminal phases are never rechecked")
                .isEqualTo(decision.terminal());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void onlyACompleteSnapshotCarriesAnArtifact(
            String name, Observation observation, String phase, String reason, boolean createJob) {
        Decision decision = SnapshotProgress.decide(observation);

        assertThat(decision.artifact().isPresent()).isEqualTo("Complete".equals(phase));
    }

    @org.junit.jupiter.api.Test
    void failureMessagesNameTheAgentsReason() {
        Decision failed = SnapshotProgress.decide(seen(
                "Started",
                ClusterState.READY,
                new JobState.Failed("BackoffLimitExceeded", Optional.of(BUCKET_MISSING))));
        Decision retrying = SnapshotProgress.decide(
                seen("Started", ClusterState.READY, new JobState.Running(Optional.of(BUCKET_MISSING))));

        assertThat(failed.message()).isEqualTo("BucketNotFound: bucket etcd-backups does not exist");
        assertThat(retrying.message()).contains("BucketNotFound");
    }
}
