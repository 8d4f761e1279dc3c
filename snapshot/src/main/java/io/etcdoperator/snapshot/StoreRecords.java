package io.etcdoperator.snapshot;

import java.util.Optional;

/**
 * The two small records kept next to a stored snapshot: {@code <key>.owner} holds the writer's uid (stored before
 * the bytes, so a crash leaves an object its own retry may replace), {@code <key>.sha256} holds
 * {@code sha256:<hex> <size>} (stored after the bytes, so it only exists for a complete object).
 */
final class StoreRecords {

    static final String OWNER_SUFFIX = ".owner";
    static final String CHECKSUM_SUFFIX = ".sha256";

    private StoreRecords() {}

    static String checksumLine(StoredSnapshot stored) {
        return stored.checksum() + " " + stored.sizeBytes() + "\n";
    }

    /** The checksum and size of a checksum record, or empty when the text is not one. */
    static Optional<Recorded> parse(String text) {
        String[] parts = text.strip().split("\\s+");
        if (parts.length != 2) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Recorded(StoredSnapshot.hexOf(parts[0]), Long.parseLong(parts[1])));
        } catch (SnapshotFailure | NumberFormatException e) {
            return Optional.empty();
        }
    }

    record Recorded(String sha256Hex, long sizeBytes) {}

    static SnapshotFailure foreign(String where, Optional<String> foundOwner) {
        return new SnapshotFailure(
                SnapshotFailure.Reason.OVERWRITE_REFUSED,
                where + " exists and was "
                        + foundOwner
                                .map(uid -> "written by another snapshot (uid " + uid + ")")
                                .orElse("not written by this agent")
                        + "; refusing to replace or delete it");
    }
}
