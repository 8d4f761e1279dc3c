package io.etcdoperator.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.SecretKeyReference;
import io.etcdoperator.api.v1alpha2.SnapshotEncryption;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The restore init container on a seed Pod, rendered from fixed EtcdMembers and compared with reviewed YAML. */
class RestoreInitContainerGoldenTest {

    private static final String IMAGE = "quay.io/coreos/etcd:v3.5.16";
    private static final Optional<AgentImage> AGENT =
            Optional.of(new AgentImage("ghcr.io/example/etcd-operator:v0.1.0", AgentImage.DEFAULT_TOOLS_DIR));

    @Test
    void seedRestoringFromS3WithTls() {
        Golden.assertMatches(
                "pod-seed-restore-s3",
                MemberPods.build(Fixtures.member("member-seed-restore-s3"), IMAGE, false, AGENT));
    }

    @Test
    void seedRestoringAnEncryptedSnapshotMountsTheWholeKeySecret() {
        var member = Fixtures.member("member-seed-restore-s3");
        var source = member.getSpec().getRestore().getSource();
        var encryption = new SnapshotEncryption();
        encryption.setKeySecretRef(new SecretKeyReference("snapshot-keys", "2025-01"));
        source.setEncryption(encryption);

        var pod = MemberPods.build(member, IMAGE, false, AGENT);

        Golden.assertMatches("pod-seed-restore-s3-encrypted", pod);
        var keys = pod.getSpec().getVolumes().stream()
                .filter(v -> v.getName().equals("restore-encryption-keys"))
                .findFirst()
                .orElseThrow();
        org.assertj.core.api.Assertions.assertThat(keys.getSecret().getItems())
                .as("every key id")
                .isNullOrEmpty();
    }

    @Test
    void seedRestoringFromPvcOnEtcd34() {
        Golden.assertMatches(
                "pod-seed-restore-pvc",
                MemberPods.build(
                        Fixtures.member("member-seed-restore-pvc"),
                        "quay.io/coreos/etcd:v3.4.23",
                        false,
                        Optional.of(new AgentImage("operator:dev", "/srv/etcd-tools"))));
    }

    @Test
    void seedOfAFormedClusterNeverRestoresAgain() {
        Pod pod = MemberPods.build(Fixtures.member("member-seed-restore-s3"), IMAGE, true, AGENT);

        assertThat(pod.getSpec().getInitContainers())
                .extracting(c -> c.getName())
                .containsExactly(EtcdGuard.INIT_CONTAINER);
        assertThat(pod.getSpec().getVolumes()).extracting(v -> v.getName()).doesNotContain("restore-s3-credentials");
    }

    @Test
    void memberWithoutRestoreHasOnlyTheGuardsInitContainer() {
        Pod pod = MemberPods.build(Fixtures.member("member-seed-plain"), IMAGE, false, AGENT);

        assertThat(pod.getSpec().getInitContainers())
                .extracting(c -> c.getName())
                .containsExactly(EtcdGuard.INIT_CONTAINER);
    }

    @Test
    void restoringSeedWithoutAnOperatorImageIsRefused() {
        EtcdMember member = Fixtures.member("member-seed-restore-s3");

        assertThatThrownBy(() -> MemberPods.build(member, IMAGE, false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("--operator-image")
                .hasMessageContaining("restored-x7k2p");
    }

    @Test
    void restoreRunsBeforeEtcdOnTheSameDataVolume() {
        Pod pod = MemberPods.build(Fixtures.member("member-seed-restore-s3"), IMAGE, false, AGENT);

        assertThat(pod.getSpec().getInitContainers())
                .extracting(c -> c.getName())
                .containsExactly(EtcdGuard.INIT_CONTAINER, AgentContainers.RESTORE);
        var restore = pod.getSpec().getInitContainers().getLast();
        assertThat(restore.getArgs())
                .startsWith("agent", "snapshot", "restore")
                .contains(
                        "--data-dir=" + EtcdCommandLine.DATA_MOUNT,
                        "--etcd-version=3.5.16",
                        "--initial-cluster-token=prod-restored-5c2e8a1f-7d3b-4f60-9e14-a8b2c6d0e5f7");
        assertThat(restore.getVolumeMounts())
                .anyMatch(m -> m.getName().equals("data") && m.getMountPath().equals(EtcdCommandLine.DATA_MOUNT));
        assertThat(String.join(" ", restore.getArgs())).doesNotContain("AWS_SECRET_ACCESS_KEY=");
    }
}
