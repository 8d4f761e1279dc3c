package io.etcdoperator.pki;

import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
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
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A self-signed CA that issues a cluster's leaves. Keys are ECDSA P-256: generated in about a millisecond (RSA-2048
 * takes tens to hundreds), half the size in Secrets and handshakes, 128-bit strength, and read by Go's crypto/tls
 * (etcd) and by netty and the JDK (jetcd, the operator). Everything takes {@code now} so callers and tests own time.
 */
public final class CertificateAuthority {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final DateTimeFormatter GENERATION =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final CertifiedKey signer;

    private CertificateAuthority(CertifiedKey signer) {
        this.signer = signer;
    }

    /**
     * A new CA. The common name carries the creation time, so an old and a new CA of one cluster never share a
     * subject, and trust stores holding both during a rotation never confuse them.
     */
    public static CertificateAuthority create(String name, Validity validity) {
        KeyPair keys = newKeyPair();
        X500Name subject = name(name + " CA " + GENERATION.format(validity.notBefore()));
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = builder(subject, subject, validity, keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(
                            Extension.subjectKeyIdentifier,
                            false,
                            extensions.createSubjectKeyIdentifier(keys.getPublic()));
            X509Certificate certificate = new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(keys.getPrivate())));
            return new CertificateAuthority(new CertifiedKey(certificate, keys.getPrivate()));
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new PkiException("cannot create CA " + name, e);
        }
    }

    /** A CA read back from its Secret. */
    public static CertificateAuthority of(CertifiedKey signer) {
        if (signer.certificate().getBasicConstraints() < 0) {
            throw new PkiException(
                    signer.certificate().getSubjectX500Principal().getName() + " is not a CA certificate");
        }
        return new CertificateAuthority(signer);
    }

    public CertifiedKey signer() {
        return signer;
    }

    public X509Certificate certificate() {
        return signer.certificate();
    }

    /** A leaf whose validity is cut to end with this CA's, since a leaf is useless once its CA expired. */
    public CertifiedKey issue(LeafProfile profile, String commonName, SubjectAltNames sans, Validity validity) {
        KeyPair keys = newKeyPair();
        Validity bounded = validity.within(Validity.of(certificate()));
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = builder(
                            X500Name.getInstance(
                                    certificate().getSubjectX500Principal().getEncoded()),
                            name(commonName),
                            bounded,
                            keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(
                            Extension.extendedKeyUsage,
                            false,
                            new ExtendedKeyUsage(profile.usages().toArray(KeyPurposeId[]::new)))
                    .addExtension(
                            Extension.subjectKeyIdentifier,
                            false,
                            extensions.createSubjectKeyIdentifier(keys.getPublic()))
                    .addExtension(
                            Extension.authorityKeyIdentifier,
                            false,
                            extensions.createAuthorityKeyIdentifier(certificate()));
            if (!sans.isEmpty()) {
                builder.addExtension(Extension.subjectAlternativeName, false, generalNames(sans));
            }
            X509Certificate certificate = new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(signer.privateKey())));
            return new CertifiedKey(certificate, keys.getPrivate());
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new PkiException("cannot issue " + profile + " certificate " + commonName, e);
        }
    }

    @Override
    public String toString() {
        return "CertificateAuthority[" + signer + "]";
    }

    private static X509v3CertificateBuilder builder(
            X500Name issuer, X500Name subject, Validity validity, PublicKey key) {
        // 127 random bits: positive, unique per issue, unpredictable (RFC 5280 allows up to 20 octets)
        return new JcaX509v3CertificateBuilder(
                issuer,
                new BigInteger(127, RANDOM),
                Date.from(validity.notBefore()),
                Date.from(validity.notAfter()),
                subject,
                key);
    }

    private static GeneralNames generalNames(SubjectAltNames sans) {
        GeneralName[] names =
                new GeneralName[sans.dnsNames().size() + sans.ipAddresses().size()];
        int i = 0;
        for (String dns : sans.dnsNames()) {
            names[i++] = new GeneralName(GeneralName.dNSName, dns);
        }
        for (String ip : sans.ipAddresses()) {
            names[i++] = new GeneralName(GeneralName.iPAddress, ip);
        }
        return new GeneralNames(names);
    }

    private static X500Name name(String commonName) {
        return new X500NameBuilder(BCStyle.INSTANCE)
                .addRDN(BCStyle.O, "etcd-operator")
                .addRDN(BCStyle.CN, commonName)
                .build();
    }

    private static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new PkiException("cannot generate an EC P-256 key pair", e);
        }
    }
}
