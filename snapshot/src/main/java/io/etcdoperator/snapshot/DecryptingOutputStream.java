package io.etcdoperator.snapshot;

import java.io.IOException;
import java.io.OutputStream;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Optional;
import javax.crypto.Cipher;

/**
 * Takes stored bytes as they arrive and writes the plaintext: an encrypted snapshot is opened with the key its
 * header names, chunk by chunk (one chunk of memory). Without a key ring a plain snapshot passes through; with one,
 * a plain snapshot is refused, so a restore that expects encryption cannot be fed an unauthenticated file.
 */
final class DecryptingOutputStream extends OutputStream {

    private final OutputStream out;
    private final Optional<KeyRing> keys;
    private byte[] head = new byte[EncryptionHeader.FIXED];
    private int headFilled;
    private boolean plainPassThrough;
    private EncryptionHeader header;
    private EncryptionKey key;
    private Cipher cipher;
    private byte[] sealed;
    private byte[] plain;
    private int filled;
    private long chunk;
    private boolean closed;

    DecryptingOutputStream(OutputStream out, Optional<KeyRing> keys) {
        this.out = out;
        this.keys = keys;
    }

    /** The id of the key the snapshot was encrypted with, once its header was read. */
    Optional<String> keyId() {
        return Optional.ofNullable(header).map(EncryptionHeader::keyId);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        while (len > 0 && header == null && !plainPassThrough) {
            int n = Math.min(len, head.length - headFilled);
            System.arraycopy(b, off, head, headFilled, n);
            headFilled += n;
            off += n;
            len -= n;
            readHeader();
        }
        if (plainPassThrough) {
            out.write(b, off, len);
            return;
        }
        while (len > 0) {
            if (filled == sealed.length) {
                open(false);
            }
            int n = Math.min(len, sealed.length - filled);
            System.arraycopy(b, off, sealed, filled, n);
            filled += n;
            off += n;
            len -= n;
        }
    }

    /** The chunk still buffered must be the final one; anything else is a truncated or tampered snapshot. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (header == null && !plainPassThrough) {
                requirePlainAllowed(headFilled);
                out.write(head, 0, headFilled);
            } else if (header != null) {
                open(true);
            }
        } finally {
            out.close();
        }
    }

    private void readHeader() throws IOException {
        int magic = EncryptionHeader.MAGIC.length;
        if (headFilled >= magic && !EncryptionHeader.startsWithMagic(head, headFilled)) {
            requirePlainAllowed(headFilled);
            plainPassThrough = true;
            out.write(head, 0, headFilled);
            return;
        }
        if (headFilled == EncryptionHeader.FIXED && head.length == EncryptionHeader.FIXED) {
            head = Arrays.copyOf(head, EncryptionHeader.FIXED + EncryptionHeader.keyIdLength(head));
        }
        if (headFilled == head.length && head.length > EncryptionHeader.FIXED) {
            header = EncryptionHeader.decode(head);
            KeyRing ring = keys.orElseThrow(() -> KeyRing.missing(header.keyId(), null));
            key = ring.find(header.keyId()).orElseThrow(() -> KeyRing.missing(header.keyId(), ring.directory()));
            cipher = GcmCipher.instance();
            sealed = new byte[header.chunkSize() + EncryptionHeader.TAG_BYTES];
            plain = new byte[header.chunkSize()];
        }
    }

    private void requirePlainAllowed(int seen) {
        if (keys.isPresent()) {
            throw EncryptionHeader.unreadable("not encrypted (" + seen + " bytes seen), but a decryption key was "
                    + "configured; refusing an unauthenticated snapshot");
        }
    }

    private void open(boolean last) throws IOException {
        if (filled < EncryptionHeader.TAG_BYTES) {
            throw EncryptionHeader.unreadable("truncated (chunk " + chunk + " is shorter than its tag)");
        }
        try {
            cipher.init(Cipher.DECRYPT_MODE, key.secretKey(), header.nonce(chunk));
            cipher.updateAAD(header.aad(last));
            int n = cipher.doFinal(sealed, 0, filled, plain, 0);
            out.write(plain, 0, n);
            filled = 0;
            chunk++;
        } catch (javax.crypto.AEADBadTagException e) {
            throw EncryptionHeader.unreadable("not authentic under key '" + header.keyId() + "' at chunk " + chunk
                    + (last ? " (the wrong key, or truncated or altered)" : " (the wrong key, or altered)"));
        } catch (GeneralSecurityException e) {
            throw new IOException("AES-GCM refused to decrypt: " + e.getClass().getSimpleName(), e);
        }
    }
}
