package io.etcdoperator.snapshot;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a plaintext copy of the streamed database in a scratch directory, so the save can record its
 * {@code snapshot status} (hash, revision, keys) for a later verification to compare with. The copy is deleted
 * as soon as the tool has read it.
 */
public record DbStatusRecorder(RestoreTool tool, Path scratch, Duration within) {

    private static final Logger LOG = LoggerFactory.getLogger(DbStatusRecorder.class);
    static final String COPY = ".save-copy.db";

    Path copy() {
        return scratch.resolve(COPY);
    }

    /** Writes every byte to both {@code out} and the copy; closing it closes only the copy. */
    OutputStream tee(OutputStream out) throws IOException {
        Files.createDirectories(scratch);
        OutputStream file = new BufferedOutputStream(Files.newOutputStream(copy()), 1 << 20);
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                out.write(b);
                file.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                file.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                file.close();
            }
        };
    }

    /** The copy's status; the copy is removed either way. A stored snapshot stays a success if the tool fails. */
    Optional<DbStatus> read() {
        try {
            return Optional.of(tool.status(copy(), within));
        } catch (SnapshotFailure e) {
            LOG.atWarn()
                    .addKeyValue("tool", tool.executable())
                    .log("could not record the snapshot's status: " + e.getMessage());
            return Optional.empty();
        } finally {
            discard();
        }
    }

    void discard() {
        try {
            Files.deleteIfExists(copy());
        } catch (IOException e) {
            // an emptyDir: gone with the Pod
        }
    }
}
