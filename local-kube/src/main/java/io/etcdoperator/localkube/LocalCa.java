package io.etcdoperator.localkube;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away certificate authority for client certificates of a local API server: an admin in
 * {@code system:masters}, or the aggregator's front-proxy client. RSA keys, PEM files (PKCS#8 keys), one day valid.
 */
final class LocalCa {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Duration LIFETIME = Duration.ofDays(1);

    private final KeyPair keys;
    private final X509Certificate certificate;
    private final Path file;

    private LocalCa(KeyPair keys, X509Certificate certificate, Path file) {
        this.keys = keys;
        this.certificate = certificate;
        this.file = file;
    }

    /** The CA certificate as a PEM file. */
    Path file() {
        return file;
    }

    /** A new self-signed CA, written to {@code dir/<name>-ca.crt}. */
    static LocalCa create(String name, Path dir) {
        KeyPair keys = newKeyPair();
        X500Name subject = subject(name + "-ca", null);
        try {
            X509Certificate certificate = sign(
                    builder(subject, subject, keys)
                            .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                            .addExtension(
                                    Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign)),
                    keys.getPrivate());
            write(dir.resolve(name + "-ca.crt"), certificate);
            return new LocalCa(keys, certificate, dir.resolve(name + "-ca.crt"));
        } catch (CertIOException e) {
            throw new IllegalStateException("cannot build a local CA", e);
        }
    }

    /**
     * A client certificate for {@code commonName} in group {@code organization} (may be null), written to
     * {@code dir/<file>.crt} and {@code dir/<file>.key} (owner only).
     */
    KeyFiles issueClient(String commonName, String organization, Path dir, String file) {
        return issue(subject(commonName, organization), KeyPurposeId.id_kp_clientAuth, null, dir, file);
    }

    /** A serving certificate for 127.0.0.1, localhost and {@code dnsName}, written like {@link #issueClient}. */
    KeyFiles issueLoopbackServer(String commonName, String dnsName, Path dir, String file) {
        GeneralNames loopback = new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
            new GeneralName(GeneralName.dNSName, "localhost"),
            new GeneralName(GeneralName.dNSName, dnsName)
        });
        return issue(subject(commonName, null), KeyPurposeId.id_kp_serverAuth, loopback, dir, file);
    }

    private KeyFiles issue(X500Name subject, KeyPurposeId usage, GeneralNames sans, Path dir, String file) {
        KeyPair leaf = newKeyPair();
        X509Certificate issued;
        try {
            JcaX509v3CertificateBuilder builder = builder(subject(certificate), subject, leaf);
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(
                            Extension.keyUsage,
                            true,
                            new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(usage));
            if (sans != null) {
                builder.addExtension(Extension.subjectAlternativeName, false, sans);
            }
            issued = sign(builder, keys.getPrivate());
        } catch (CertIOException e) {
            throw new IllegalStateException("cannot build a local certificate", e);
        }
        Path cert = dir.resolve(file + ".crt");
        Path key = dir.resolve(file + ".key");
        write(cert, issued);
        try {
            ServiceAccountKeys.writeOwnerOnly(
                    key, ServiceAccountKeys.pem("PRIVATE KEY", leaf.getPrivate().getEncoded()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + key, e);
        }
        return new KeyFiles(cert, key);
    }

    /** A certificate and its private key as PEM files. */
    record KeyFiles(Path certificate, Path key) {}

    private static JcaX509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(
                issuer,
                new BigInteger(64, RANDOM).abs().add(BigInteger.ONE),
                Date.from(now.minus(Duration.ofMinutes(5))),
                Date.from(now.plus(LIFETIME)),
                subject,
                keys.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer) {
        try {
            return new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(signer)));
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot sign a local certificate", e);
        }
    }

    private static X500Name subject(String commonName, String organization) {
        X500NameBuilder name = new X500NameBuilder(BCStyle.INSTANCE);
        if (organization != null) {
            name.addRDN(BCStyle.O, organization);
        }
        return name.addRDN(BCStyle.CN, commonName).build();
    }

    private static X500Name subject(X509Certificate certificate) {
        return X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
    }

    private static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK offers no RSA key generator", e);
        }
    }

    private static void write(Path file, X509Certificate certificate) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, ServiceAccountKeys.pem("CERTIFICATE", certificate.getEncoded()));
        } catch (IOException | GeneralSecurityException e) {
            throw new UncheckedIOException(
                    "cannot write " + file, e instanceof IOException io ? io : new IOException(e));
        }
    }
}
