package io.etcdoperator.pki;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;

/** PEM in and out. Errors say which kind of object was unreadable, never what the bytes were. */
public final class Pem {

    private Pem() {}

    public static byte[] encode(X509Certificate certificate) {
        return write(certificate);
    }

    public static byte[] encode(List<X509Certificate> certificates) {
        StringBuilder text = new StringBuilder();
        certificates.forEach(c -> text.append(new String(encode(c), StandardCharsets.US_ASCII)));
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Unencrypted PKCS#8 ("BEGIN PRIVATE KEY"). */
    public static byte[] encode(PrivateKey key) {
        try {
            return write(new JcaPKCS8Generator(key, null).generate());
        } catch (IOException e) {
            throw new PkiException("cannot encode a " + key.getAlgorithm() + " private key", e);
        }
    }

    /** Every certificate in the text, in order; other PEM objects are skipped. */
    public static List<X509Certificate> certificates(byte[] pem) {
        List<X509Certificate> out = new ArrayList<>();
        try (PEMParser parser = parser(pem)) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof X509CertificateHolder holder) {
                    out.add(new JcaX509CertificateConverter().getCertificate(holder));
                }
            }
        } catch (IOException | CertificateException | RuntimeException e) {
            throw new PkiException("not readable as PEM certificates", e);
        }
        return out;
    }

    /** The first certificate in the text. */
    public static X509Certificate certificate(byte[] pem) {
        List<X509Certificate> all = certificates(pem);
        if (all.isEmpty()) {
            throw new PkiException("no PEM certificate found");
        }
        return all.getFirst();
    }

    /** A PKCS#8 key, or a traditional EC/RSA key pair ("BEGIN EC PRIVATE KEY") as other tools write them. */
    public static PrivateKey privateKey(byte[] pem) {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (PEMParser parser = parser(pem)) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
                if (o instanceof PEMKeyPair pair) {
                    return converter.getPrivateKey(pair.getPrivateKeyInfo()); // the public half may be absent
                }
            }
        } catch (IOException | RuntimeException e) {
            // the cause could quote the key's bytes, so it is deliberately not attached
            throw new PkiException(
                    "not readable as a PEM private key (" + e.getClass().getSimpleName() + ")");
        }
        throw new PkiException("no unencrypted PEM private key found");
    }

    private static PEMParser parser(byte[] pem) {
        return new PEMParser(new StringReader(new String(pem, StandardCharsets.US_ASCII)));
    }

    private static byte[] write(Object object) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
