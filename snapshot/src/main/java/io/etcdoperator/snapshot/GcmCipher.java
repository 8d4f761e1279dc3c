package io.etcdoperator.snapshot;

import java.security.GeneralSecurityException;
import javax.crypto.Cipher;

/** The one cipher snapshots are encrypted with. */
final class GcmCipher {

    private GcmCipher() {}

    static Cipher instance() {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has AES/GCM/NoPadding", e);
        }
    }
}
