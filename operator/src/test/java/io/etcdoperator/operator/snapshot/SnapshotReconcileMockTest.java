package io.etcdoperator.operator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdSnapshot;
import io.etcdoperator.api.v1alpha2.SnapshotArtifact;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.resources.AgentImage;
import io.etcdoperator.operator.resources.Owners;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The EtcdSnapshot pass against the fabric8 CRUD mock, standing in for the Job controller and the kubelet. */
@EnableKubernetesMockClient(crud = true)
class SnapshotReconcileMockTest {

    KubernetesClient client;
    private static final String NS = "db";
    private static final String IMAGE = "ghcr.io/example/etcd-operator:v0.1.0";
    private static final String HEX = "ab".repeat(32);
    private SnapshotReconcile pass;

    @BeforeEach
    void setUp() throws IOException {
        MockCluster.installCrds(client);
        pass = new SnapshotReconcile(
                client, Optional.of(IMAGE), new EventRecorder(client, "test", Clock.systemUTC()), Clock.systemUTC());
    }

    private EtcdSnapshot create(String name, String cluster) {
        return client.resource(SnapshotFixtures.snapshot(NS, name, null, cluster, SnapshotFixtures.s3("prod/")))
                .create();
    }

    private EtcdSnapshot get(String name) {
        return client.resources(EtcdSnapshot.class)
                .inNamespace(NS)
                .withName(name)
                .get();
    }

    private List<Job> jobs() {
        return client.batch().v1().jobs().inNamespace(NS).list().getItems();
    }

    /** What the Job controller and kubelet report: one Pod that ran the agent and the Job's final status. */
    private void finish(Job job, boolean succeeded, String terminationMessage) {
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName(job.getMetadata().getName() + "-x1")
                .withNamespace(NS)
                .addToLabels("job-name", job.getMetadata().getName())
                .withOwnerReferences(Owners.controller(job))
                .endMetadata()
                .build();
        pod = client.resource(pod).create();
        pod.setStatus(new PodStatusBuilder()
                .withPhase(succeeded ? "Succeeded" : "Failed")
                .withContainerStatuses(new ContainerStatusBuilder()
                        .withName(SnapshotJobs.CONTAINER)
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(succeeded ? 0 : 1)
                        .withMessage(terminationMessage)
                        .endTerminated()
                        .endState()
                        .build())
                .build());
        client.resource(pod).updateStatus();
        JobStatus status = new JobStatus();
        if (succeeded) {
            status.setSucceeded(1);
            status.setConditions(List.of(new JobConditionBuilder()
                    .withType("Complete")
                    .withStatus("True")
                    .build()));
        } else {
            status.setFailed(3);
            status.setConditions(List.of(new JobConditionBuilder()
                    .withType("Failed")
                    .withStatus("True")
                    .withReason("BackoffLimitExceeded")
                    .withMessage("Job has reached the specified backoff limit")
                    .build()));
        }
        job.setStatus(status);
        client.resource(job).updateStatus();
    }

    @Test
    void createsExactlyOneJobAndCompletesFromTheTerminationMessage() {
        MockCluster.formed(client, NS, "prod");
        create("nightly", "prod");

        for (int i = 0; i < 4; i++) {
            pass.reconcile(NS, "nightly");
        }

        assertThat(jobs()).hasSize(1);
        Job job = jobs().getFirst();
        assertThat(Owners.controlledBy(job, get("nightly").getMetadata().getUid()))
                .isTrue();
        assertThat(get("nightly").getStatus().getPhase()).isEqualTo("Started");
        assertThat(job.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getArgs())
                .contains("--endpoints=http://prod-abcde.prod.db.svc:2379", "--name=nightly");

        finish(
                job,
                true,
                "{\"result\":\"stored\",\"uri\":\"s3://etcd-backups/prod/nightly.db\",\"sizeBytes\":20480,"
                        + "\"checksum\":\"sha256:" + HEX + "\",\"endpoint\":\"http://prod-abcde.prod.db.svc:2379\","
                        + "\"memberID\":\"8e9e05c52164694d\",\"leader\":true,\"revision\":4711}");
        pass.reconcile(NS, "nightly");
        pass.reconcile(NS, "nightly");

        EtcdSnapshot done = get("nightly");
        assertThat(done.getStatus().getPhase()).isEqualTo("Complete");
        SnapshotArtifact artifact = done.getStatus().getArtifact();
        assertThat(artifact.getUri()).isEqualTo("s3://etcd-backups/prod/nightly.db");
        assertThat(artifact.getSizeBytes()).isEqualTo(20480L);
        assertThat(artifact.getChecksum()).isEqualTo("sha256:" + HEX);
        assertThat(artifact.getSourceEndpoint()).isEqualTo("http://prod-abcde.prod.db.svc:2379");
        assertThat(artifact.getSourceMemberID()).isEqualTo("8e9e05c52164694d");
        assertThat(artifact.getRevision()).isEqualTo(4711L);
        assertThat(done.getStatus().getConditions())
                .singleElement()
                .satisfies(c -> assertThat(c.getStatus() + "/" + c.getReason()).isEqualTo("True/SnapshotStored"))
                .satisfies(c -> assertThat(c.getMessage())
                        .endsWith("from the leader http://prod-abcde.prod.db.svc:2379 at revision 4711"));
        assertThat(jobs()).hasSize(1);
    }

    @Test
    void aVerifiedSnapshotRecordsItsStatusThenAVerifyJobSetsVerifiedAndCountsIt() {
        var registry = new SimpleMeterRegistry();
        pass = new SnapshotReconcile(
                client,
                Optional.of(new AgentImage(IMAGE, null)),
                new EventRecorder(client, "test", Clock.systemUTC()),
                Clock.systemUTC(),
                new VerifyMetrics(registry));
        MockCluster.formed(client, NS, "prod");
        EtcdSnapshot snapshot = SnapshotFixtures.snapshot(NS, "checked", null, "prod", SnapshotFixtures.s3("prod/"));
        snapshot.getSpec().setVerify(true);
        client.resource(snapshot).create();
        pass.reconcile(NS, "checked");
        pass.reconcile(NS, "checked");
        assertThat(jobs().getFirst()
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getArgs())
                .contains("--status-scratch-dir=/snapshot/scratch");
        finish(
                jobs().getFirst(),
                true,
                "{\"result\":\"stored\",\"uri\":\"s3://etcd-backups/prod/checked.db\","
                        + "\"sizeBytes\":20480,\"checksum\":\"sha256:" + HEX
                        + "\",\"dbHash\":\"79851ed4\",\"dbRevision\":22,"
                        + "\"dbTotalKeys\":27}");
        pass.reconcile(NS, "checked");
        assertThat(get("checked").getStatus().getArtifact().getDbHash()).isEqualTo("79851ed4");

        pass.reconcile(NS, "checked");
        pass.reconcile(NS, "checked");
        Job verify = client.batch()
                .v1()
                .jobs()
                .inNamespace(NS)
                .withName("checked-verify")
                .get();
        assertThat(verify.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getArgs())
                .contains("--expect-hash=79851ed4", "--expect-revision=22", "--expect-total-keys=27");
        assertThat(jobs()).hasSize(2);
        assertThat(Conditions.find(get("checked").getStatus().getConditions(), "Verified")
                        .orElseThrow()
                        .getStatus())
                .isEqualTo("Unknown");

        finish(verify, false, "{\"result\":\"failed\",\"reason\":\"ChecksumMismatch\",\"message\":\"altered\"}");
        pass.reconcile(NS, "checked");
        pass.reconcile(NS, "checked");

        var status = get("checked").getStatus();
        assertThat(status.getPhase()).as("the save's success stands").isEqualTo("Complete");
        var verified = Conditions.find(status.getConditions(), "Verified").orElseThrow();
        assertThat(verified.getStatus() + "/" + verified.getReason()).isEqualTo("False/VerificationFailed");
        assertThat(registry.get(VerifyMetrics.VERIFICATIONS)
                        .tag("result", "failed")
                        .counter()
                        .count())
                .isEqualTo(1.0);
        assertThat(jobs()).hasSize(2);
    }

    @Test
    void aFailedJobFailsTheSnapshotWithTheAgentsReason() {
        MockCluster.formed(client, NS, "prod");
        create("broken", "prod");
        pass.reconcile(NS, "broken");
        pass.reconcile(NS, "broken");

        finish(
                jobs().getFirst(),
                false,
                "{\"result\":\"failed\",\"reason\":\"BucketNotFound\","
                        + "\"message\":\"bucket etcd-backups does not exist\"}");
        pass.reconcile(NS, "broken");

        var status = get("broken").getStatus();
        assertThat(status.getPhase()).isEqualTo("Failed");
        assertThat(status.getConditions().getFirst().getReason()).isEqualTo("BucketNotFound");
        assertThat(status.getArtifact()).isNull();
    }

    @Test
    void aJobDeletedAfterTheStartIsNeverRunAgain() {
        MockCluster.formed(client, NS, "prod");
        create("lost", "prod");
        pass.reconcile(NS, "lost");
        pass.reconcile(NS, "lost");
        client.batch().v1().jobs().inNamespace(NS).delete();

        pass.reconcile(NS, "lost");
        pass.reconcile(NS, "lost");

        assertThat(get("lost").getStatus().getPhase()).isEqualTo("Failed");
        assertThat(get("lost").getStatus().getConditions().getFirst().getReason())
                .isEqualTo("SnapshotJobLost");
        assertThat(jobs()).isEmpty();
    }

    @Test
    void aMissingClusterFailsWithoutAJob() {
        create("orphan", "nowhere");

        pass.reconcile(NS, "orphan");
        pass.reconcile(NS, "orphan");

        assertThat(get("orphan").getStatus().getPhase()).isEqualTo("Failed");
        assertThat(get("orphan").getStatus().getConditions().getFirst().getReason())
                .isEqualTo("ClusterNotFound");
        assertThat(jobs()).isEmpty();
    }

    @Test
    void withoutAnOperatorImageNothingRuns() {
        MockCluster.formed(client, NS, "prod");
        create("noimage", "prod");
        var noImage = new SnapshotReconcile(
                client, Optional.empty(), new EventRecorder(client, "t", Clock.systemUTC()), Clock.systemUTC());

        noImage.reconcile(NS, "noimage");
        noImage.reconcile(NS, "noimage");

        assertThat(get("noimage").getStatus().getConditions().getFirst().getReason())
                .isEqualTo("OperatorImageNotConfigured");
        assertThat(jobs()).isEmpty();
    }
}
