package io.etcdoperator.pki;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;

/** SHA-256 of a certificate's DER encoding, lower-case hex: safe to log, compare and put in status. */
public record Fingerprint(String sha256) {

    public static Fingerprint of(X509Certificate certificate) {
        try {
            return new Fingerprint(HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded())));
        } catch (CertificateEncodingException | NoSuchAlgorithmException e) {
            throw new PkiException("cannot fingerprint " + certificate.getSubjectX500Principal(), e);
        }
    }

    /** The first 16 hex digits, for logs and events. */
    public String shortForm() {
        return sha256.substring(0, 16);
    }

    @Override
    public String toString() {
        return sha256;
    }
}
