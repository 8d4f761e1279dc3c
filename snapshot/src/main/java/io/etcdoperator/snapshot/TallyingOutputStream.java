package io.etcdoperator.snapshot;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** Passes bytes through while counting them and feeding them to sha256, so the checksum costs no second read. */
final class TallyingOutputStream extends FilterOutputStream {

    private final MessageDigest sha256 = sha256();
    private long count;

    TallyingOutputStream(OutputStream out) {
        super(out);
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        sha256.update((byte) b);
        count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        sha256.update(b, off, len);
        count += len;
    }

    long count() {
        return count;
    }

    byte[] digest() {
        return sha256.digest();
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
