package io.etcdoperator.pki;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/** A certificate and its private key. {@link #toString()} never shows the key. */
public record CertifiedKey(X509Certificate certificate, PrivateKey privateKey) {

    public byte[] certificatePem() {
        return Pem.encode(certificate);
    }

    /** PKCS#8, the form both etcd and netty read. */
    public byte[] privateKeyPem() {
        return Pem.encode(privateKey);
    }

    public Fingerprint fingerprint() {
        return Fingerprint.of(certificate);
    }

    public Validity validity() {
        return Validity.of(certificate);
    }

    public static CertifiedKey fromPem(byte[] certificatePem, byte[] privateKeyPem) {
        return new CertifiedKey(Pem.certificate(certificatePem), Pem.privateKey(privateKeyPem));
    }

    @Override
    public String toString() {
        return "CertifiedKey[" + certificate.getSubjectX500Principal().getName() + ", notAfter="
                + certificate.getNotAfter().toInstant() + ", sha256="
                + fingerprint().shortForm() + "]";
    }
}
