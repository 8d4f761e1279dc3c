package io.etcdoperator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RestoreToolTest {

    @ParameterizedTest(name = "etcd {0} -> {1}")
    @CsvSource({
        "3.4.23,  /tools/v3.4/etcdctl, ETCDCTL",
        "v3.4.0,  /tools/v3.4/etcdctl, ETCDCTL",
        "3.5.16,  /tools/v3.5/etcdutl, ETCDUTL",
        "3.6.4,   /tools/v3.6/etcdutl, ETCDUTL",
        "3.5,     /tools/v3.5/etcdutl, ETCDUTL",
    })
    void theTargetVersionPicksTheTool(String version, String path, RestoreTool.Kind kind) {
        RestoreTool tool = RestoreTool.forVersion(version, Path.of("/tools"));
        assertThat(tool.executable()).isEqualTo(Path.of(path));
        assertThat(tool.kind()).isEqualTo(kind);
    }

    @ParameterizedTest
    @CsvSource({"latest", "3", "''"})
    void anUnparsableVersionIsAnInvalidRequest(String version) {
        assertThatThrownBy(() -> RestoreTool.forVersion(version, Path.of("/tools")))
                .isInstanceOf(SnapshotFailure.class)
                .hasMessageContaining("not an etcd version");
    }

    @Test
    void theCommandCarriesTheNewMembersIdentity() {
        var target = new RestoreTarget(
                Path.of("/var/lib/etcd"),
                "prod-abc12",
                "prod-abc12=https://prod-abc12.prod:2380",
                "default-prod-restored",
                "https://prod-abc12.prod:2380");

        assertThat(RestoreTool.at(Path.of("/usr/bin/etcdutl"))
                        .command(Path.of("/var/lib/etcd/s.db"), Path.of("/var/lib/etcd/.restore"), target))
                .containsExactly(
                        "/usr/bin/etcdutl",
                        "snapshot",
                        "restore",
                        "/var/lib/etcd/s.db",
                        "--name",
                        "prod-abc12",
                        "--data-dir",
                        "/var/lib/etcd/.restore",
                        "--initial-cluster",
                        "prod-abc12=https://prod-abc12.prod:2380",
                        "--initial-cluster-token",
                        "default-prod-restored",
                        "--initial-advertise-peer-urls",
                        "https://prod-abc12.prod:2380",
                        "--bump-revision",
                        "1000000000",
                        "--mark-compacted");
    }

    @Test
    void etcdctl34HasNoRevisionBumpSoItsCommandLeavesItOut() {
        var target = new RestoreTarget(Path.of("/d"), "m", "m=http://m:2380", "t", "http://m:2380");
        RestoreTool tool = RestoreTool.forVersion("3.4.23", Path.of("/tools"));

        assertThat(tool.revisionBump()).isZero();
        assertThat(tool.command(Path.of("/d/s.db"), Path.of("/d/.restore"), target))
                .doesNotContain("--bump-revision", "--mark-compacted");
    }

    @Test
    void aMissingToolFailsBeforeAnythingIsFetched() {
        assertThatThrownBy(() -> RestoreTool.at(Path.of("/nonexistent/etcdutl")).requireExecutable())
                .isInstanceOf(SnapshotFailure.class)
                .satisfies(e -> assertThat(((SnapshotFailure) e).reason())
                        .isEqualTo(SnapshotFailure.Reason.RESTORE_TOOL_FAILED));
    }

    /** A tool that hangs with its output still open must not hold the restore past its deadline. */
    @Test
    void aToolThatHangsIsStoppedAtTheDeadline(@TempDir Path dir) throws Exception {
        Path tool = dir.resolve("etcdutl");
        Files.writeString(tool, "#!/bin/sh\necho starting\nexec sleep 20\n");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwx------"));
        assertThatThrownBy(() -> RestoreTool.at(tool).status(dir.resolve("db"), Duration.ofSeconds(1)))
                .isInstanceOf(SnapshotFailure.class)
                .hasMessageContaining("did not finish within PT1S");
    }
}
