package io.etcdoperator.operator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdSnapshot;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotSchedule;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotScheduleSpec;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotScheduleStatus;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotStatus;
import io.etcdoperator.api.v1alpha2.SnapshotArtifact;
import io.etcdoperator.api.v1alpha2.SnapshotRetention;
import io.etcdoperator.operator.MovableClock;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.schedule.SchedulePlan;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The schedule pass against the fabric8 CRUD mock, with a clock the test moves: firing, idempotency, pruning. */
@EnableKubernetesMockClient(crud = true)
class ScheduleReconcileMockTest {

    KubernetesClient client;
    private static final String NS = "db";
    private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
    private final MovableClock clock = new MovableClock(T0);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private ScheduleReconcile pass;

    @BeforeEach
    void setUp() throws IOException {
        MockCluster.installCrds(client);
        pass = new ScheduleReconcile(
                client,
                Optional.of("ghcr.io/example/etcd-operator:v0.1.0"),
                new EventRecorder(client, "test", clock),
                new ScheduleMetrics(registry),
                clock);
        EtcdSnapshotSchedule schedule = new EtcdSnapshotSchedule();
        schedule.getMetadata().setName("hourly");
        schedule.getMetadata().setNamespace(NS);
        EtcdSnapshotScheduleSpec spec = new EtcdSnapshotScheduleSpec();
        spec.setClusterRef(new LocalObjectReference("prod"));
        spec.setSchedule("@hourly");
        spec.setDestination(SnapshotFixtures.s3("prod/"));
        SnapshotRetention retention = new SnapshotRetention();
        retention.setKeepLast(2);
        spec.setRetention(retention);
        schedule.setSpec(spec);
        schedule = client.resource(schedule).create();
        EtcdSnapshotScheduleStatus status = new EtcdSnapshotScheduleStatus();
        status.setLastScheduleTime(T0.toString());
        schedule.setStatus(status);
        client.resource(schedule).updateStatus();
    }

    private List<EtcdSnapshot> snapshots() {
        return client.resources(EtcdSnapshot.class).inNamespace(NS).list().getItems();
    }

    private EtcdSnapshotSchedule schedule() {
        return client.resources(EtcdSnapshotSchedule.class)
                .inNamespace(NS)
                .withName("hourly")
                .get();
    }

    /** What the snapshot controller would write once the agent stored it. */
    private void complete(String name) {
        EtcdSnapshot s = client.resources(EtcdSnapshot.class)
                .inNamespace(NS)
                .withName(name)
                .get();
        EtcdSnapshotStatus status = new EtcdSnapshotStatus();
        status.setPhase(EtcdSnapshotStatus.PHASE_COMPLETE);
        SnapshotArtifact artifact = new SnapshotArtifact();
        artifact.setUri("s3://etcd-backups/prod/" + name + ".db");
        artifact.setSizeBytes(1L);
        artifact.setChecksum("sha256:" + "0".repeat(64));
        status.setArtifact(artifact);
        status.setConditions(
                Conditions.set(null, Conditions.READY, true, "SnapshotStored", "stored", 1L, clock.instant()));
        s.setStatus(status);
        client.resource(s).updateStatus();
    }

    @Test
    void firesOncePerSlotAndWaitsForTheNext() {
        clock.set(T0.plus(Duration.ofHours(1)).plusSeconds(5));

        Optional<Duration> first = pass.reconcile(NS, "hourly");
        pass.reconcile(NS, "hourly");
        pass.reconcile(NS, "hourly");

        assertThat(snapshots()).extracting(s -> s.getMetadata().getName()).containsExactly("hourly-202611221100");
        assertThat(snapshots().getFirst().getMetadata().getLabels())
                .containsEntry(EtcdSnapshotSchedule.LABEL_SCHEDULE, "hourly");
        assertThat(first).contains(SchedulePlan.BUSY_POLL);
        assertThat(schedule().getStatus().getLastScheduleTime()).isEqualTo("2026-11-22T11:00:00Z");
        assertThat(schedule().getStatus().getActive()).containsExactly("hourly-202611221100");

        complete("hourly-202611221100");
        Optional<Duration> idle = pass.reconcile(NS, "hourly");

        assertThat(idle).contains(Duration.ofMinutes(60).minusSeconds(5));
        assertThat(schedule().getStatus().getActive()).isNull();
        assertThat(schedule().getStatus().getLastSuccessfulTime()).isEqualTo("2026-11-22T11:00:05Z");
        assertThat(registry.get(ScheduleMetrics.LAST_SUCCESS)
                        .tag("schedule", "hourly")
                        .gauge()
                        .value())
                .isEqualTo(Instant.parse("2026-11-22T11:00:05Z").getEpochSecond());
        assertThat(registry.get(ScheduleMetrics.INTERVAL)
                        .tag("schedule", "hourly")
                        .gauge()
                        .value())
                .isEqualTo(3600);

        client.resources(EtcdSnapshotSchedule.class)
                .inNamespace(NS)
                .withName("hourly")
                .delete();
        pass.reconcile(NS, "hourly");
        assertThat(registry.find(ScheduleMetrics.LAST_SUCCESS)
                        .tag("schedule", "hourly")
                        .gauges())
                .isEmpty();
    }

    @Test
    void prunesBeyondKeepLastThroughADeleteJob() {
        for (int hour = 1; hour <= 3; hour++) {
            clock.set(T0.plus(Duration.ofHours(hour)).plusSeconds(5));
            pass.reconcile(NS, "hourly");
            complete(SchedulePlan.snapshotName("hourly", T0.plus(Duration.ofHours(hour))));
        }

        pass.reconcile(NS, "hourly");

        List<Job> jobs = client.batch().v1().jobs().inNamespace(NS).list().getItems();
        assertThat(jobs).extracting(j -> j.getMetadata().getName()).containsExactly("hourly-202611221100-prune");
        assertThat(jobs.getFirst()
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getArgs())
                .startsWith("agent", "snapshot", "delete")
                .contains("--name=hourly-202611221100");
        EtcdSnapshot oldest = client.resources(EtcdSnapshot.class)
                .inNamespace(NS)
                .withName("hourly-202611221100")
                .get();
        assertThat(oldest.getMetadata().getLabels()).containsEntry(ScheduleReconcile.LABEL_RETENTION, "prune");

        Job job = jobs.getFirst();
        JobStatus done = new JobStatus();
        done.setSucceeded(1);
        job.setStatus(done);
        client.resource(job).updateStatus();
        pass.reconcile(NS, "hourly");

        assertThat(snapshots())
                .extracting(s -> s.getMetadata().getName())
                .containsExactlyInAnyOrder("hourly-202611221200", "hourly-202611221300");
        assertThat(client.batch().v1().jobs().inNamespace(NS).list().getItems()).isEmpty();
    }

    @Test
    void anInvalidTimeZoneIsReportedNotRetried() {
        EtcdSnapshotSchedule schedule = schedule();
        schedule.getSpec().setTimeZone("Mars/Olympus");
        client.resource(schedule).update();

        Optional<Duration> next = pass.reconcile(NS, "hourly");

        assertThat(next).isEmpty();
        assertThat(Conditions.find(schedule().getStatus().getConditions(), Conditions.READY))
                .hasValueSatisfying(c -> assertThat(c.getReason()).isEqualTo("InvalidSchedule"));
        assertThat(snapshots()).isEmpty();
    }
}
