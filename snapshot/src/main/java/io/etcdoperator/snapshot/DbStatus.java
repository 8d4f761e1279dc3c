package io.etcdoperator.snapshot;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code etcdutl snapshot status -w json} says of a database file: a crc32 over every bucket's keys and values,
 * the newest revision in the key bucket, and the number of entries across all buckets (not only the keyspace).
 */
public record DbStatus(long hash, long revision, long totalKeys) {

    private static final Pattern FIELD = Pattern.compile("\"(hash|revision|totalKey)\"\\s*:\\s*(\\d+)");

    /** The hash as etcdutl's table prints it, in hexadecimal. */
    public String hashHex() {
        return Long.toHexString(hash);
    }

    public static long parseHashHex(String hex) {
        try {
            return Long.parseLong(hex.strip(), 16);
        } catch (NumberFormatException e) {
            throw new SnapshotFailure(SnapshotFailure.Reason.INVALID_REQUEST, "not a hexadecimal hash: '" + hex + "'");
        }
    }

    /** Reads the JSON object the tool printed (among any log lines); empty when one of the three fields is missing. */
    public static Optional<DbStatus> parse(String output) {
        Long hash = null;
        Long revision = null;
        Long totalKeys = null;
        Matcher m = FIELD.matcher(output == null ? "" : output);
        while (m.find()) {
            long value = Long.parseLong(m.group(2));
            switch (m.group(1)) {
                case "hash" -> hash = value;
                case "revision" -> revision = value;
                default -> totalKeys = value;
            }
        }
        return hash == null || revision == null || totalKeys == null
                ? Optional.empty()
                : Optional.of(new DbStatus(hash, revision, totalKeys));
    }

    @Override
    public String toString() {
        return "revision " + revision + ", " + totalKeys + " keys, hash " + hashHex();
    }
}
