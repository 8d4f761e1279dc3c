package io.etcdoperator.operator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.AuthSpec;
import io.etcdoperator.api.v1alpha2.ClusterTls;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterStatus;
import io.etcdoperator.api.v1alpha2.EtcdSnapshot;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotSchedule;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotStatus;
import io.etcdoperator.api.v1alpha2.OperatorIssuedTls;
import io.etcdoperator.api.v1alpha2.SnapshotArtifact;
import io.etcdoperator.api.v1alpha2.SnapshotLocation;
import io.etcdoperator.operator.resources.AgentImage;
import io.etcdoperator.operator.resources.Fixtures;
import io.etcdoperator.operator.resources.Golden;
import io.etcdoperator.operator.resources.Names;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Snapshot agent Jobs, rendered from fixed objects and compared with reviewed YAML. */
class SnapshotJobGoldenTest {

    private static final String IMAGE = "ghcr.io/example/etcd-operator:v0.1.0";
    private static final List<URI> VOTERS = List.of(
            URI.create("https://demo-4kq7m.demo.prod.svc:2379"), URI.create("https://demo-8vx2r.demo.prod.svc:2379"));

    /** cluster-demo: client mTLS through cert-manager; here with auth latched. */
    private static EtcdCluster authCluster() {
        EtcdCluster cluster = Fixtures.cluster("cluster-demo");
        AuthSpec auth = new AuthSpec();
        auth.setEnabled(true);
        auth.setRootCredentialsSecretRef(new LocalObjectReference("demo-root"));
        cluster.getSpec().setAuth(auth);
        EtcdClusterStatus status = cluster.getStatus();
        status.setAuthEnabled(true);
        return cluster;
    }

    @Test
    void saveToS3WithMtlsAndAuth() {
        EtcdSnapshot snapshot = SnapshotFixtures.snapshot(
                "prod",
                "demo-before-upgrade",
                "9c1d7e3a-2b4f-4a68-8e05-f3a7b9c2d6e1",
                "demo",
                SnapshotFixtures.s3("prod/"));

        Golden.assertMatches(
                "job-snapshot-s3-mtls-auth", SnapshotJobs.save(snapshot, authCluster(), VOTERS, true, IMAGE));
    }

    @Test
    void saveEncryptedToS3WithKmsMountsOnlyTheNamedKey() {
        SnapshotLocation destination = SnapshotFixtures.s3("prod/");
        destination.getS3().setServerSideEncryption("aws:kms");
        destination.getS3().setKmsKeyId("arn:aws:kms:eu-west-1:111122223333:key/etcd");
        destination.setEncryption(SnapshotFixtures.encryption("snapshot-keys", "2025-01"));
        EtcdSnapshot snapshot = SnapshotFixtures.snapshot(
                "prod", "demo-encrypted", "0e6b8d2f-4a1c-4e3d-9b7a-5c2e8f1a3d6b", "demo", destination);

        Job job = SnapshotJobs.save(snapshot, authCluster(), VOTERS, true, IMAGE);

        Golden.assertMatches("job-snapshot-s3-encrypted", job);
        String rendered = Serialization.asYaml(job);
        assertThat(job.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getEnv())
                .isNullOrEmpty();
        assertThat(rendered).doesNotContain("AWS_SECRET_ACCESS_KEY");
    }

    @Test
    void pruneNeedsNoEncryptionKey() {
        SnapshotLocation destination = SnapshotFixtures.s3("prod/");
        destination.setEncryption(SnapshotFixtures.encryption("snapshot-keys", "2025-01"));
        EtcdSnapshot snapshot = SnapshotFixtures.snapshot("prod", "s", "u", "demo", destination);

        Job job = SnapshotJobs.prune(snapshot, snapshot, IMAGE);

        assertThat(job.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getArgs())
                .noneMatch(a -> a.startsWith("--encryption"));
        assertThat(job.getSpec().getTemplate().getSpec().getVolumes())
                .noneMatch(v -> v.getName().contains("encryption"));
    }

    @Test
    void saveToPvcFromAPlaintextCluster() {
        EtcdCluster cluster = Fixtures.cluster("cluster-demo");
        cluster.getSpec().setTls(null);
        EtcdSnapshot snapshot = SnapshotFixtures.snapshot(
                "prod",
                "demo-weekly",
                "4e8a2c6f-1d3b-4f79-a0c5-b7e9d1f3a2c4",
                "demo",
                SnapshotFixtures.pvc("etcd-backups", "demo"));

        Golden.assertMatches(
                "job-snapshot-pvc",
                SnapshotJobs.save(
                        snapshot, cluster, List.of(URI.create("http://demo-4kq7m.demo.prod.svc:2379")), false, IMAGE));
    }

    @Test
    void pruneOfAScheduledSnapshotIsOwnedByTheSchedule() {
        EtcdSnapshot snapshot = SnapshotFixtures.snapshot(
                "prod",
                "demo-hourly-202611221400",
                "b2d4f6a8-0c1e-4a3b-9d5f-7e9a1c3b5d7f",
                "demo",
                SnapshotFixtures.s3("hourly"));
        EtcdSnapshotSchedule schedule = new EtcdSnapshotSchedule();
        schedule.getMetadata().setName("demo-hourly");
        schedule.getMetadata().setNamespace("prod");
        schedule.getMetadata().setUid("5f7a9c1e-3b5d-4f80-a2c4-e6f8a0b2c4d6");

        Golden.assertMatches("job-prune-s3", SnapshotJobs.prune(snapshot, schedule, IMAGE));
    }

    @Test
    void operatorIssuedTlsMountsTheCaAndTheOperatorsClientPair() {
        EtcdCluster cluster = Fixtures.cluster("cluster-demo");
        var tls = new ClusterTls();
        tls.setOperatorIssued(new OperatorIssuedTls());
        cluster.getSpec().setTls(tls);
        EtcdSnapshot snapshot = SnapshotFixtures.snapshot("prod", "s", "u", "demo", SnapshotFixtures.s3(""));

        Job job = SnapshotJobs.save(snapshot, cluster, VOTERS, false, IMAGE);

        var pod = job.getSpec().getTemplate().getSpec();
        assertThat(pod.getContainers().getFirst().getArgs())
                .contains("--cert-file=" + SnapshotJobs.CLIENT_MOUNT + "/tls.crt")
                .anyMatch(a -> a.startsWith("--ca-file="));
        assertThat(pod.getVolumes())
                .extracting(v -> v.getSecret().getSecretName())
                .contains("demo-server-tls", "demo-operator-client-tls");
    }

    @Test
    void authIsLeftOutUntilItLatched() {
        EtcdSnapshot snapshot = SnapshotFixtures.snapshot("prod", "s", "u", "demo", SnapshotFixtures.s3(""));

        Job job = SnapshotJobs.save(snapshot, authCluster(), VOTERS, false, IMAGE);

        assertThat(job.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getArgs())
                .noneMatch(a -> a.startsWith("--user") || a.startsWith("--password-file"));
    }

    @Test
    void agentPodsNeverCarryTheClusterLabelServicesSelectOn() {
        EtcdSnapshot snapshot = SnapshotFixtures.snapshot("prod", "s", "u", "demo", SnapshotFixtures.s3(""));

        Job job = SnapshotJobs.save(snapshot, authCluster(), VOTERS, true, IMAGE);

        assertThat(job.getSpec().getTemplate().getMetadata().getLabels())
                .doesNotContainKey("etcd-operator.cozystack.io/cluster");
    }

    @Test
    void longNamesAreShortenedToALabelValueAndStayDistinct() {
        String longName = "a".repeat(70);

        String one = Names.shorten(longName + "-202611221400", "-snapshot");
        String two = Names.shorten(longName + "-202611221500", "-snapshot");

        assertThat(one).hasSizeLessThanOrEqualTo(63).endsWith("-snapshot").isNotEqualTo(two);
        assertThat(Names.shorten("short", "-prune")).isEqualTo("short-prune");
    }

    @Test
    void verifiedSaveRecordsTheDatabaseStatusInAScratchDir() {
        EtcdSnapshot snapshot = SnapshotFixtures.snapshot(
                "prod", "demo-verified", "5b2e7c1d-8f3a-4d6e-a9b0-1c4f7e2d8a35", "demo", SnapshotFixtures.s3("prod/"));
        snapshot.getSpec().setVerify(true);

        Job job = SnapshotJobs.save(snapshot, authCluster(), VOTERS, true, new AgentImage(IMAGE, "/opt/etcd-tools"));

        Golden.assertMatches("job-snapshot-s3-verified", job);
    }

    @Test
    void verifyFetchesReadOnlyWithEveryKeyAndTheRecordedNumbers() {
        SnapshotLocation destination = SnapshotFixtures.pvc("backups", "prod");
        destination.setEncryption(SnapshotFixtures.encryption("snapshot-keys", "2025-01"));
        EtcdSnapshot snapshot = SnapshotFixtures.snapshot(
                "prod", "demo-verified", "5b2e7c1d-8f3a-4d6e-a9b0-1c4f7e2d8a35", "demo", destination);
        snapshot.getSpec().setVerify(true);
        var artifact = new SnapshotArtifact();
        artifact.setChecksum("sha256:" + "ab".repeat(32));
        artifact.setRevision(48211L);
        artifact.setDbHash("79851ed4");
        artifact.setDbRevision(48213L);
        artifact.setDbTotalKeys(9606L);
        snapshot.setStatus(new EtcdSnapshotStatus());
        snapshot.getStatus().setArtifact(artifact);

        Job job = SnapshotJobs.verify(snapshot, "3.5.16", new AgentImage(IMAGE, "/opt/etcd-tools"));

        Golden.assertMatches("job-snapshot-verify-pvc-encrypted", job);
        var container = job.getSpec().getTemplate().getSpec().getContainers().getFirst();
        assertThat(container.getArgs())
                .contains("--key=prod/demo-verified.db", "--expect-revision=48213")
                .noneMatch(a -> a.startsWith("--min-revision") || a.startsWith("--encryption-key-id"));
        assertThat(container.getResources().getLimits())
                .as("etcdutl maps the whole database")
                .isNullOrEmpty();
    }
}
