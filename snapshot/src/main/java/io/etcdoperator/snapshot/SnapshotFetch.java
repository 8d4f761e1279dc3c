package io.etcdoperator.snapshot;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Downloads a stored snapshot into a local file, decrypting it on the way, and checks the stored bytes' sha256: the
 * part a restore and a verification share.
 */
final class SnapshotFetch {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotFetch.class);

    /** The stored object, what its hash was checked against (given, recorded, none), and the key id it named. */
    record Fetched(StoredSnapshot stored, String verifiedAgainst, Optional<String> encryptionKeyId) {}

    private SnapshotFetch() {}

    /**
     * @param expectedChecksum {@code sha256:<hex>}; when empty, the checksum recorded at save time, if any
     * @param keys decrypt with these; when empty, only a plain snapshot is accepted
     */
    static Fetched fetch(
            SnapshotStore store, String key, Optional<String> expectedChecksum, Optional<KeyRing> keys, Path download) {
        Optional<String> expected = expectedChecksum
                .map(StoredSnapshot::hexOf)
                .or(() -> store.recordedChecksum(key).map(StoredSnapshot::hexOf));
        String verifiedAgainst = expectedChecksum.isPresent() ? "given" : expected.isPresent() ? "recorded" : "none";
        var decrypting = new AtomicReference<DecryptingOutputStream>();
        StoredSnapshot fetched = store.fetch(key, download, file -> {
            decrypting.set(new DecryptingOutputStream(file, keys));
            return decrypting.get();
        });
        if (expected.isPresent() && !expected.get().equals(fetched.sha256Hex())) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.CHECKSUM_MISMATCH,
                    fetched.uri() + " has sha256 " + fetched.sha256Hex() + " but " + expected.get() + " was expected");
        }
        if (expected.isEmpty()) {
            LOG.atWarn()
                    .addKeyValue("uri", fetched.uri())
                    .log("no recorded checksum; relying on the hash etcd appends to its snapshots");
        }
        return new Fetched(fetched, verifiedAgainst, decrypting.get().keyId());
    }
}
