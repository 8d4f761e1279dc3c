package io.etcdoperator.snapshot;

import java.io.IOException;
import java.io.OutputStream;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Cipher;

/**
 * AES-256-GCM over fixed-size chunks, written as they fill: memory is one chunk whatever the snapshot's size.
 * {@link #finish()} writes the final chunk (flagged in its AAD) without closing the stream underneath.
 */
final class EncryptingOutputStream extends OutputStream {

    static final int DEFAULT_CHUNK = 1 << 20;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final OutputStream out;
    private final EncryptionKey key;
    private final EncryptionHeader header;
    private final byte[] aadMiddle;
    private final byte[] aadLast;
    private final byte[] plain;
    private final byte[] sealed;
    private final Cipher cipher;
    private int filled;
    private long chunk;
    private boolean headerWritten;
    private boolean finished;

    EncryptingOutputStream(OutputStream out, EncryptionKey key, int chunkSize) {
        byte[] prefix = new byte[8];
        RANDOM.nextBytes(prefix);
        this.out = out;
        this.key = key;
        this.header = new EncryptionHeader(key.id(), prefix, chunkSize);
        this.aadMiddle = header.aad(false);
        this.aadLast = header.aad(true);
        this.plain = new byte[chunkSize];
        this.sealed = new byte[chunkSize + EncryptionHeader.TAG_BYTES];
        this.cipher = GcmCipher.instance();
    }

    EncryptingOutputStream(OutputStream out, EncryptionKey key) {
        this(out, key, DEFAULT_CHUNK);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    /** A full chunk is sealed only when more bytes follow, so the last one can always carry the final flag. */
    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            if (filled == plain.length) {
                seal(false);
            }
            int n = Math.min(len, plain.length - filled);
            System.arraycopy(b, off, plain, filled, n);
            filled += n;
            off += n;
            len -= n;
        }
    }

    /** Seals what is buffered as the final chunk (possibly empty). Further writes are a bug. */
    void finish() throws IOException {
        if (!finished) {
            seal(true);
            finished = true;
            out.flush();
        }
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    private void seal(boolean last) throws IOException {
        if (finished) {
            throw new IOException("encrypted snapshot already finished");
        }
        if (!headerWritten) {
            out.write(header.encode());
            headerWritten = true;
        }
        try {
            cipher.init(Cipher.ENCRYPT_MODE, key.secretKey(), header.nonce(chunk++));
            cipher.updateAAD(last ? aadLast : aadMiddle);
            int n = cipher.doFinal(plain, 0, filled, sealed, 0);
            out.write(sealed, 0, n);
            filled = 0;
        } catch (GeneralSecurityException e) {
            throw new IOException("AES-GCM refused to encrypt: " + e.getClass().getSimpleName(), e);
        }
    }
}
