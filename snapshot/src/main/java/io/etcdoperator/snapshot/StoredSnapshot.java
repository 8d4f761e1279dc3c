package io.etcdoperator.snapshot;

import java.net.URI;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/** Where a snapshot was stored and what was stored: size and sha256 of exactly the bytes at {@code uri}. */
public record StoredSnapshot(URI uri, long sizeBytes, String sha256Hex) {

    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");
    public static final String CHECKSUM_PREFIX = "sha256:";

    public StoredSnapshot {
        if (!HEX64.matcher(sha256Hex).matches()) {
            throw new IllegalArgumentException("not a lower-case sha256 hex digest: " + sha256Hex);
        }
    }

    public static StoredSnapshot of(URI uri, long sizeBytes, byte[] digest) {
        return new StoredSnapshot(uri, sizeBytes, HexFormat.of().formatHex(digest));
    }

    /** {@code sha256:<hex>}, the form status.artifact.checksum uses. */
    public String checksum() {
        return CHECKSUM_PREFIX + sha256Hex;
    }

    /** Parses {@code sha256:<hex>}; anything else is an invalid request. */
    public static String hexOf(String checksum) {
        String hex = checksum.strip().toLowerCase(Locale.ROOT);
        if (hex.startsWith(CHECKSUM_PREFIX)) {
            hex = hex.substring(CHECKSUM_PREFIX.length());
        }
        if (!HEX64.matcher(hex).matches()) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INVALID_REQUEST, "not a sha256 checksum: '" + checksum + "'");
        }
        return hex;
    }
}
