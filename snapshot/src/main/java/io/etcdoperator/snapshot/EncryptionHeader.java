package io.etcdoperator.snapshot;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.crypto.spec.GCMParameterSpec;

/**
 * The start of an encrypted snapshot: magic, format version, chunk size, a random nonce prefix and the key id. Every
 * chunk's AAD is this whole header plus a final-chunk flag, so neither can be altered and truncation shows.
 */
record EncryptionHeader(String keyId, byte[] noncePrefix, int chunkSize) {

    static final byte[] MAGIC = "ETCDSNE1".getBytes(StandardCharsets.US_ASCII);
    static final byte VERSION = 1;
    /** magic, version, chunk size, nonce prefix, key id length: everything before the key id. */
    static final int FIXED = MAGIC.length + 1 + 4 + 8 + 1;

    static final int TAG_BYTES = 16;
    static final int MAX_CHUNK = 16 << 20;

    byte[] encode() {
        byte[] id = keyId.getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocate(FIXED + id.length)
                .put(MAGIC)
                .put(VERSION)
                .putInt(chunkSize)
                .put(noncePrefix)
                .put((byte) id.length)
                .put(id)
                .array();
    }

    static boolean startsWithMagic(byte[] bytes, int length) {
        return length >= MAGIC.length && Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
    }

    /** The key id's length, read from the fixed part; the header is {@code FIXED + that} bytes. */
    static int keyIdLength(byte[] fixed) {
        return fixed[FIXED - 1] & 0xff;
    }

    static EncryptionHeader decode(byte[] header) {
        ByteBuffer in = ByteBuffer.wrap(header, MAGIC.length, header.length - MAGIC.length);
        byte version = in.get();
        int chunkSize = in.getInt();
        if (version != VERSION || chunkSize < 1 || chunkSize > MAX_CHUNK) {
            throw unreadable("an unknown encryption format (version " + version + ")");
        }
        byte[] prefix = new byte[8];
        in.get(prefix);
        byte[] id = new byte[in.get() & 0xff];
        in.get(id);
        return new EncryptionHeader(
                EncryptionKey.requireId(new String(id, StandardCharsets.US_ASCII)), prefix, chunkSize);
    }

    /** 12 bytes: the per-object random prefix, then the chunk counter; unique per key as long as prefixes differ. */
    GCMParameterSpec nonce(long chunk) {
        if (chunk > 0xffffffffL) {
            throw new SnapshotFailure(SnapshotFailure.Reason.STORAGE_ERROR, "snapshot exceeds 2^32 encrypted chunks");
        }
        return new GCMParameterSpec(
                TAG_BYTES * 8,
                ByteBuffer.allocate(12).put(noncePrefix).putInt((int) chunk).array());
    }

    byte[] aad(boolean last) {
        byte[] encoded = encode();
        byte[] aad = Arrays.copyOf(encoded, encoded.length + 1);
        aad[encoded.length] = (byte) (last ? 1 : 0);
        return aad;
    }

    static SnapshotFailure unreadable(String what) {
        return new SnapshotFailure(SnapshotFailure.Reason.DECRYPTION_FAILED, "the snapshot is " + what);
    }
}
