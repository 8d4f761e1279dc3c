package io.etcdoperator.snapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The keys a restore may decrypt with, by id: the files of a mounted Secret, one per data key. The snapshot names
 * the id it was encrypted with, so rotating keys only means keeping the old ones in the Secret.
 */
public record KeyRing(Path directory) {

    public Optional<EncryptionKey> find(String id) {
        Path file = directory.resolve(EncryptionKey.requireId(id));
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(EncryptionKey.fromSecretValue(id, Files.readAllBytes(file)));
        } catch (IOException e) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.ENCRYPTION_KEY_MISSING,
                    "cannot read encryption key '" + id + "' from " + directory + ": "
                            + e.getClass().getSimpleName());
        }
    }

    /** The key a save encrypts with; its absence is a failure naming the id. */
    public EncryptionKey require(String id) {
        return find(id).orElseThrow(() -> missing(id, directory));
    }

    static SnapshotFailure missing(String id, Path where) {
        return new SnapshotFailure(
                SnapshotFailure.Reason.ENCRYPTION_KEY_MISSING,
                "no encryption key with id '" + id + "'" + (where == null ? " was given" : " in " + where)
                        + " (the key Secret must hold an entry of that name)");
    }
}
