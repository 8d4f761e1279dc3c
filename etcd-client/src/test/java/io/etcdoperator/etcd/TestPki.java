package io.etcdoperator.etcd;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A throw-away ECDSA P-256 certificate authority issuing loopback server and client certificates as PEM. */
final class TestPki {

    /** A certificate and its PKCS#8 private key, both PEM. */
    record Issued(byte[] certPem, byte[] keyPem) {
        void writeTo(Path cert, Path key) {
            try {
                Files.write(cert, certPem);
                Files.write(key, keyPem);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private final KeyPair caKeys;
    private final X509Certificate caCert;

    TestPki(String name) {
        this.caKeys = keyPair();
        X500Name subject = new X500Name("CN=" + name);
        this.caCert = sign(subject, subject, caKeys, caKeys, true, null);
    }

    byte[] caPem() {
        return pem(caCert);
    }

    Issued server() {
        GeneralNames sans = new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")
        });
        return issue("etcd-server", sans);
    }

    Issued client(String commonName) {
        return issue(commonName, null);
    }

    private Issued issue(String commonName, GeneralNames sans) {
        KeyPair keys = keyPair();
        X509Certificate cert = sign(
                new X500Name("CN=" + commonName),
                X500Name.getInstance(caCert.getSubjectX500Principal().getEncoded()),
                keys,
                caKeys,
                false,
                sans);
        try {
            return new Issued(pem(cert), pem(new JcaPKCS8Generator(keys.getPrivate(), null)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static X509Certificate sign(
            X500Name subject, X500Name issuer, KeyPair subjectKeys, KeyPair issuerKeys, boolean ca, GeneralNames sans) {
        Instant now = Instant.now();
        try {
            var builder = new JcaX509v3CertificateBuilder(
                    issuer,
                    new BigInteger(64, RANDOM),
                    Date.from(now.minus(Duration.ofMinutes(5))),
                    Date.from(now.plus(Duration.ofDays(1))),
                    subject,
                    subjectKeys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            if (ca) {
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            } else {
                builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
                builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
                    KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
                }));
            }
            if (sans != null) {
                builder.addExtension(Extension.subjectAlternativeName, false, sans);
            }
            var signer = new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate());
            return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("cannot issue a test certificate for " + subject, e);
        }
    }

    private static KeyPair keyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] pem(Object object) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
