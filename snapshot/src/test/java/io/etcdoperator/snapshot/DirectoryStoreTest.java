package io.etcdoperator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryStoreTest {

    private static final SnapshotIdentity MINE = new SnapshotIdentity("nightly", "uid-1");
    private static final SnapshotIdentity OTHER = new SnapshotIdentity("nightly", "uid-2");

    @TempDir
    Path root;

    @Test
    void storesTheBytesAndReportsTheirSizeAndSha256() throws IOException {
        byte[] data = Sha256.pseudoRandom(3 << 20, 1);
        StoredSnapshot stored = new DirectoryStore(root).save("backups/nightly.db", MINE, out -> out.write(data));

        Path file = root.resolve("backups/nightly.db");
        assertThat(stored.uri()).isEqualTo(file.toUri());
        assertThat(stored.sizeBytes()).isEqualTo(Files.size(file)).isEqualTo(data.length);
        assertThat(stored.sha256Hex())
                .isEqualTo(Sha256.of(Files.readAllBytes(file)))
                .isEqualTo(Sha256.of(data));
        assertThat(new DirectoryStore(root).recordedChecksum("backups/nightly.db"))
                .contains(stored.checksum());
        try (var leftovers = Files.list(file.getParent())) {
            assertThat(leftovers.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("nightly.db", "nightly.db.owner", "nightly.db.sha256");
        }
    }

    @Test
    void aRetryOfTheSameSnapshotReturnsTheStoredFileWithoutWritingAgain() {
        var store = new DirectoryStore(root);
        StoredSnapshot first = store.save("nightly.db", MINE, out -> out.write(new byte[] {1, 2, 3}));

        StoredSnapshot again = store.save("nightly.db", MINE, out -> {
            throw new AssertionError("the writer must not run for a complete snapshot");
        });

        assertThat(again).isEqualTo(first);
    }

    @Test
    void refusesToReplaceAFileAnotherSnapshotWrote() throws IOException {
        var store = new DirectoryStore(root);
        store.save("nightly.db", MINE, out -> out.write(new byte[] {1, 2, 3}));

        assertThatThrownBy(() -> store.save("nightly.db", OTHER, out -> out.write(new byte[] {9})))
                .isInstanceOf(SnapshotFailure.class)
                .satisfies(e ->
                        assertThat(((SnapshotFailure) e).reason()).isEqualTo(SnapshotFailure.Reason.OVERWRITE_REFUSED))
                .hasMessageContaining("uid-1");
        assertThat(Files.readAllBytes(root.resolve("nightly.db"))).containsExactly(1, 2, 3);
    }

    @Test
    void refusesToReplaceAFileItDidNotWriteAtAll() throws IOException {
        Files.write(root.resolve("nightly.db"), new byte[] {7});

        assertThatThrownBy(() -> new DirectoryStore(root).save("nightly.db", MINE, out -> out.write(new byte[] {9})))
                .hasMessageContaining("not written by this agent");
        assertThat(Files.readAllBytes(root.resolve("nightly.db"))).containsExactly(7);
    }

    @Test
    void aFailedWriteLeavesNoFileBehindAndItsRetrySucceeds() throws IOException {
        var store = new DirectoryStore(root);
        assertThatThrownBy(() -> store.save("nightly.db", MINE, out -> {
                    out.write(new byte[] {1});
                    throw new SnapshotFailure(SnapshotFailure.Reason.CLUSTER_UNREACHABLE, "etcd went away");
                }))
                .hasMessage("etcd went away");
        assertThat(root.resolve("nightly.db")).doesNotExist();
        try (var files = Files.list(root)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("nightly.db.owner");
        }

        StoredSnapshot stored = store.save("nightly.db", MINE, out -> out.write(new byte[] {4, 5}));
        assertThat(stored.sizeBytes()).isEqualTo(2);
    }

    @Test
    void fetchCopiesAndHashesTheFile() throws IOException {
        byte[] data = Sha256.pseudoRandom(100_000, 2);
        var store = new DirectoryStore(root);
        store.save("a/b/nightly.db", MINE, out -> out.write(data));

        Path copy = Files.createTempFile(root, "copy", ".db");
        StoredSnapshot fetched = store.fetch("a/b/nightly.db", copy);

        assertThat(Files.readAllBytes(copy)).isEqualTo(data);
        assertThat(fetched.sha256Hex()).isEqualTo(Sha256.of(data));
        assertThat(store.size("a/b/nightly.db")).isEqualTo(data.length);
    }

    @Test
    void missingFilesAndDirectoriesAreNamedAsSuch() throws IOException {
        Files.createDirectories(root.resolve("dir.db"));
        var store = new DirectoryStore(root);

        assertThatThrownBy(() -> store.size("absent.db"))
                .isInstanceOf(SnapshotFailure.class)
                .satisfies(e -> assertThat(((SnapshotFailure) e).reason())
                        .isEqualTo(SnapshotFailure.Reason.SNAPSHOT_NOT_FOUND));
        assertThatThrownBy(() -> store.size("dir.db")).hasMessageContaining("is a directory");
        assertThat(store.recordedChecksum("absent.db")).isEqualTo(Optional.empty());
    }

    @Test
    void pathsCannotLeaveTheDirectory() {
        var store = new DirectoryStore(root);
        assertThatThrownBy(() -> store.save("../escape.db", MINE, out -> out.write(1)))
                .hasMessageContaining("leaves");
        assertThatThrownBy(() -> store.fetch("a/../../etc/passwd", root.resolve("x")))
                .hasMessageContaining("leaves");
    }

    @Test
    void deleteRemovesOnlyItsOwnSnapshot() {
        var store = new DirectoryStore(root);
        store.save("nightly.db", MINE, out -> out.write(new byte[] {1}));

        assertThatThrownBy(() -> store.delete("nightly.db", OTHER)).hasMessageContaining("refusing");
        assertThat(root.resolve("nightly.db")).exists();

        assertThat(store.delete("nightly.db", MINE)).isTrue();
        assertThat(root).isEmptyDirectory();
        assertThat(store.delete("nightly.db", MINE)).isFalse();
    }
}
