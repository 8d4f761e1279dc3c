package io.etcdoperator.snapshot;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Pattern;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * An AES-256 key and the id stored with everything it encrypts (a Secret's data key, so a Secret can hold several).
 * {@link #toString()} shows only the id.
 */
public final class EncryptionKey {

    static final int BYTES = 32;
    private static final Pattern ID = Pattern.compile("[-._a-zA-Z0-9]{1,253}");

    private final String id;
    private final SecretKey key;

    EncryptionKey(String id, byte[] material) {
        requireId(id);
        if (material.length != BYTES) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INVALID_REQUEST,
                    "encryption key '" + id + "' must be " + BYTES + " bytes (raw, or base64 of " + BYTES + " bytes)");
        }
        this.id = id;
        this.key = new SecretKeySpec(material, "AES");
    }

    /** A Secret value as kubectl stores it: 32 raw bytes, or their base64 text (e.g. {@code openssl rand -base64 32}). */
    public static EncryptionKey fromSecretValue(String id, byte[] value) {
        if (value.length == BYTES) {
            return new EncryptionKey(id, value);
        }
        try {
            return new EncryptionKey(
                    id, Base64.getDecoder().decode(new String(value, StandardCharsets.US_ASCII).strip()));
        } catch (IllegalArgumentException e) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INVALID_REQUEST,
                    "encryption key '" + id + "' must be " + BYTES + " raw bytes or their base64");
        }
    }

    static String requireId(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INVALID_REQUEST,
                    "an encryption key id is a Secret data key " + "([-._a-zA-Z0-9], at most 253 characters)");
        }
        return id;
    }

    public String id() {
        return id;
    }

    SecretKey secretKey() {
        return key;
    }

    @Override
    public String toString() {
        return "EncryptionKey[id=" + id + "]";
    }
}
