package io.etcdoperator.snapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Proves a stored snapshot restores: fetch and decrypt it as a restore would, read its status, restore it into a
 * scratch directory with the same tool and flags a bootstrap restore uses, read the restored database's status, and
 * judge ({@link SnapshotVerdict}). The scratch directory is emptied whatever happens.
 */
public final class SnapshotVerify {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotVerify.class);
    /** Loopback and a throwaway token: the scratch member is never started, only restored. */
    private static final String MEMBER = "verify";

    private static final String PEER = "http://127.0.0.1:2380";

    private final RestoreTool tool;
    private final Duration within;
    private final Optional<KeyRing> keys;

    public SnapshotVerify(RestoreTool tool, Duration within, Optional<KeyRing> keys) {
        this.tool = tool;
        this.within = within;
        this.keys = keys;
    }

    /** A verified snapshot: the object fetched and the verdict; a mismatch throws VerificationFailed instead. */
    public record Verified(StoredSnapshot stored, SnapshotVerdict verdict, Duration took) {}

    public Verified run(
            SnapshotStore store,
            String key,
            Optional<String> expectedChecksum,
            SnapshotVerdict.Recorded recorded,
            Path scratch) {
        tool.requireExecutable();
        long started = System.nanoTime();
        Path download = scratch.resolve(SnapshotRestore.DOWNLOAD);
        Path staging = scratch.resolve(SnapshotRestore.STAGING);
        try {
            Files.createDirectories(scratch);
            SnapshotRestore.removeStale(download, staging);
            SnapshotRestore.requireSpace(scratch, store.size(key));
            var fetched = SnapshotFetch.fetch(store, key, expectedChecksum, keys, download);
            DbStatus stored = tool.status(download, within);
            tool.run(
                    download,
                    staging,
                    new RestoreTarget(staging, MEMBER, MEMBER + "=" + PEER, "verify-" + System.nanoTime(), PEER),
                    within);
            DbStatus restored =
                    tool.status(staging.resolve("member").resolve("snap").resolve("db"), within);
            SnapshotVerdict verdict = SnapshotVerdict.judge(recorded, stored, restored, tool.revisionBump());
            if (!verdict.verified()) {
                throw new SnapshotFailure(SnapshotFailure.Reason.VERIFICATION_FAILED, verdict.message());
            }
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            LOG.atInfo()
                    .addKeyValue("uri", fetched.stored().uri())
                    .addKeyValue("status", stored)
                    .addKeyValue("tookMillis", took.toMillis())
                    .log("snapshot verified");
            return new Verified(fetched.stored(), verdict, took);
        } catch (IOException e) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.STORAGE_ERROR, "verify in " + scratch + " failed: " + e.getMessage(), e);
        } finally {
            try {
                SnapshotRestore.removeStale(download, staging);
            } catch (IOException e) {
                LOG.atWarn().addKeyValue("scratch", scratch).log("could not empty the scratch directory");
            }
        }
    }
}
