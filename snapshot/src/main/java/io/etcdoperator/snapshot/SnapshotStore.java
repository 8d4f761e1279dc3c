package io.etcdoperator.snapshot;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Somewhere snapshots live: an S3 bucket or a mounted directory. Keys are '/'-separated paths relative to the store.
 * Next to each object the store records its owner (before the bytes land) and its checksum (after they landed).
 */
public interface SnapshotStore extends AutoCloseable {

    /**
     * Streams a new snapshot to {@code key}. An object already there is replaced only if {@code owner} wrote it; if
     * it is complete, it is returned unchanged without calling the writer (a retried Job is a no-op).
     */
    StoredSnapshot save(String key, SnapshotIdentity owner, SnapshotWriter writer);

    /** Copies the object at exactly {@code key} into {@code target}, hashing what it copies. */
    default StoredSnapshot fetch(String key, Path target) {
        return fetch(key, target, UnaryOperator.identity());
    }

    /**
     * Like {@link #fetch(String, Path)}, with the stored bytes passing through {@code decoding} on their way to the
     * file; the hash and size are still those of the stored bytes. Closing the decoding stream closes the file.
     */
    StoredSnapshot fetch(String key, Path target, UnaryOperator<OutputStream> decoding);

    /** Size of the object at {@code key}; {@link SnapshotFailure.Reason#SNAPSHOT_NOT_FOUND} when absent. */
    long size(String key);

    /** The checksum recorded when the agent stored {@code key}, if it did. */
    Optional<String> recordedChecksum(String key);

    /** Deletes the object and its records if {@code owner} wrote it; returns false when nothing was there. */
    boolean delete(String key, SnapshotIdentity owner);

    /** Releases connections; a directory holds none. */
    @Override
    default void close() {}

    /** Produces the snapshot bytes; called at most once per save. */
    @FunctionalInterface
    interface SnapshotWriter {
        void writeTo(OutputStream out) throws IOException;
    }

    /** {@code <prefix>/<file>}, without a doubled slash and without a leading one. */
    static String key(String prefix, String fileName) {
        String p = prefix == null ? "" : prefix.strip();
        while (p.startsWith("/")) {
            p = p.substring(1);
        }
        if (p.isEmpty()) {
            return fileName;
        }
        return p.endsWith("/") ? p + fileName : p + "/" + fileName;
    }
}
