package io.etcdoperator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The restore steps around the tool, with a stand-in tool that records its arguments and makes a member dir. */
class SnapshotRestoreTest {

    private static final SnapshotIdentity OWNER = new SnapshotIdentity("nightly", "uid-1");

    @TempDir
    Path tmp;

    private DirectoryStore store;
    private Path dataDir;
    private RestoreTool tool;
    private RestoreTarget target;

    @BeforeEach
    void setUp() throws IOException {
        store = new DirectoryStore(tmp.resolve("pvc"));
        store.save("nightly.db", OWNER, out -> out.write("snapshot-bytes".getBytes()));
        dataDir = tmp.resolve("data");
        Path script = tmp.resolve("etcdutl");
        // $3 is the snapshot file, $7 the --data-dir value
        Files.writeString(script, """
        #!/bin/sh
        echo "$@" > "%s"
        cp "$3" "%s"
        mkdir -p "$7/member/snap"
        """.formatted(tmp.resolve("args"), tmp.resolve("seen.db")));
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        tool = RestoreTool.at(script);
        target = new RestoreTarget(dataDir, "m1", "m1=http://127.0.0.1:2380", "new-token", "http://127.0.0.1:2380");
    }

    @Test
    void restoresIntoPlaceAndCleansUp() throws IOException {
        var outcome =
                new SnapshotRestore(tool, Duration.ofSeconds(30)).run(store, "nightly.db", Optional.empty(), target);

        assertThat(outcome.restored()).isTrue();
        assertThat(outcome.verifiedAgainst()).isEqualTo("recorded");
        assertThat(dataDir.resolve("member/snap")).isDirectory();
        assertThat(Files.readString(tmp.resolve("seen.db"))).isEqualTo("snapshot-bytes");
        assertThat(Files.readString(tmp.resolve("args"))).contains("--initial-cluster-token new-token");
        try (var files = Files.list(dataDir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("member");
        }
    }

    @Test
    void aDataDirWithAMemberIsLeftAlone() throws IOException {
        Files.createDirectories(dataDir.resolve("member"));
        var broken = new DirectoryStore(tmp.resolve("nowhere"));

        var outcome =
                new SnapshotRestore(tool, Duration.ofSeconds(30)).run(broken, "nightly.db", Optional.empty(), target);

        assertThat(outcome.restored()).isFalse();
        assertThat(tmp.resolve("args")).doesNotExist();
    }

    @Test
    void aChecksumMismatchStopsBeforeTheToolRuns() {
        String wrong = "sha256:" + "0".repeat(64);

        assertThatThrownBy(() -> new SnapshotRestore(tool, Duration.ofSeconds(30))
                        .run(store, "nightly.db", Optional.of(wrong), target))
                .isInstanceOf(SnapshotFailure.class)
                .satisfies(e ->
                        assertThat(((SnapshotFailure) e).reason()).isEqualTo(SnapshotFailure.Reason.CHECKSUM_MISMATCH));
        assertThat(tmp.resolve("args")).doesNotExist();
        assertThat(dataDir.resolve("member")).doesNotExist();
    }

    @Test
    void leftoversOfAnEarlierAttemptAreRemovedFirst() throws IOException {
        Files.createDirectories(dataDir.resolve(SnapshotRestore.STAGING).resolve("member/wal"));
        Files.writeString(dataDir.resolve(SnapshotRestore.DOWNLOAD), "half a download");

        new SnapshotRestore(tool, Duration.ofSeconds(30)).run(store, "nightly.db", Optional.empty(), target);

        assertThat(dataDir.resolve("member/wal")).doesNotExist();
        assertThat(dataDir.resolve(SnapshotRestore.DOWNLOAD)).doesNotExist();
    }

    @Test
    void aFailingToolIsReportedWithItsOutput() throws IOException {
        Path failing = tmp.resolve("etcdctl");
        Files.writeString(failing, "#!/bin/sh\necho 'snapshot file has wrong hash' >&2\nexit 3\n");
        Files.setPosixFilePermissions(failing, PosixFilePermissions.fromString("rwx------"));

        assertThatThrownBy(() -> new SnapshotRestore(RestoreTool.at(failing), Duration.ofSeconds(30))
                        .run(store, "nightly.db", Optional.empty(), target))
                .isInstanceOf(SnapshotFailure.class)
                .hasMessageContaining("exited with 3")
                .hasMessageContaining("wrong hash");
        assertThat(dataDir.resolve("member")).doesNotExist();
    }
}
