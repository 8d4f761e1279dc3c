package io.etcdoperator.snapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seeds an empty data directory from a stored snapshot: fetch, verify the sha256, restore with the version's tool,
 * then move the result into place with one rename. A data directory that already holds a member is left alone, so
 * a restarted init container never restores twice.
 */
public final class SnapshotRestore {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotRestore.class);
    static final String DOWNLOAD = ".restore-snapshot.db";
    static final String STAGING = ".restore";

    private final RestoreTool tool;
    private final Duration within;
    private final Optional<KeyRing> keys;

    public SnapshotRestore(RestoreTool tool, Duration within) {
        this(tool, within, Optional.empty());
    }

    /** @param keys decrypt with these; when empty, only a plain snapshot restores (an encrypted one names its key id) */
    public SnapshotRestore(RestoreTool tool, Duration within, Optional<KeyRing> keys) {
        this.tool = tool;
        this.within = within;
        this.keys = keys;
    }

    /** How a restore went: skipped (member present) or restored from the fetched bytes. */
    public record Outcome(
            boolean restored,
            Optional<StoredSnapshot> snapshot,
            String verifiedAgainst,
            long revisionBump,
            Optional<String> encryptionKeyId) {}

    /**
     * @param expectedChecksum {@code sha256:<hex>} to verify against; when empty, the checksum the agent recorded when
     *     it stored the snapshot is used, and when there is none either, only etcd's own hash check guards the file
     */
    public Outcome run(SnapshotStore store, String key, Optional<String> expectedChecksum, RestoreTarget target) {
        Path dataDir = target.dataDir();
        if (Files.isDirectory(dataDir.resolve("member"))) {
            LOG.atInfo()
                    .addKeyValue("dataDir", dataDir)
                    .log("data directory already holds a member; nothing to restore");
            return new Outcome(false, Optional.empty(), "none", 0, Optional.empty());
        }
        tool.requireExecutable();
        Path download = dataDir.resolve(DOWNLOAD);
        Path staging = dataDir.resolve(STAGING);
        try {
            Files.createDirectories(dataDir);
            removeStale(download, staging);
            return restore(store, key, expectedChecksum, target, download, staging);
        } catch (IOException e) {
            removeQuietly(download, staging);
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.STORAGE_ERROR, "restore into " + dataDir + " failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            removeQuietly(download, staging); // a wrong key or a failed tool leaves no plaintext and no half member
            throw e;
        }
    }

    private Outcome restore(
            SnapshotStore store,
            String key,
            Optional<String> expectedChecksum,
            RestoreTarget target,
            Path download,
            Path staging)
            throws IOException {
        Path dataDir = target.dataDir();
        requireSpace(dataDir, store.size(key));
        var fetched = SnapshotFetch.fetch(store, key, expectedChecksum, keys, download);
        if (tool.revisionBump() == 0) {
            LOG.atWarn()
                    .addKeyValue("tool", tool.executable())
                    .log("this tool cannot bump the revision: watchers that "
                            + "saw revisions after the snapshot (Kubernetes) will not be told to re-list");
        }
        tool.run(download, staging, target, within);
        Files.move(staging.resolve("member"), dataDir.resolve("member"), StandardCopyOption.ATOMIC_MOVE);
        removeStale(download, staging);
        LOG.atInfo()
                .addKeyValue("uri", fetched.stored().uri())
                .addKeyValue("sizeBytes", fetched.stored().sizeBytes())
                .addKeyValue("member", target.memberName())
                .log("snapshot restored");
        return new Outcome(
                true,
                Optional.of(fetched.stored()),
                fetched.verifiedAgainst(),
                tool.revisionBump(),
                fetched.encryptionKeyId());
    }

    /** The download and the tool's output both live in the data directory, so it needs twice the snapshot's size. */
    static void requireSpace(Path dataDir, long snapshotSize) throws IOException {
        long usable = Files.getFileStore(dataDir).getUsableSpace();
        if (usable < 2 * snapshotSize) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INSUFFICIENT_SPACE,
                    dataDir + " has " + usable + " bytes free; restoring a " + snapshotSize + "-byte snapshot needs "
                            + 2 * snapshotSize);
        }
    }

    private static void removeQuietly(Path download, Path staging) {
        try {
            removeStale(download, staging);
        } catch (IOException e) {
            LOG.atWarn().addKeyValue("download", download).log("could not remove a failed restore's files");
        }
    }

    static void removeStale(Path download, Path staging) throws IOException {
        Files.deleteIfExists(download);
        if (Files.exists(staging)) {
            try (Stream<Path> files = Files.walk(staging)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
