package io.etcdoperator.etcd;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PKCS#8 PEM private key read with the JDK's own providers. Handing netty the PEM instead makes it try
 * BouncyCastle's reader first, which instantiates BouncyCastle's JCA providers (hundreds of classes, tens of MiB of
 * heap) in the operator; docs/benchmarks.md.
 */
final class Pkcs8Key {

    private static final Pattern PEM =
            Pattern.compile("-----BEGIN PRIVATE KEY-----\\s*([A-Za-z0-9+/=\\s]+?)\\s*-----END PRIVATE KEY-----");
    private static final List<String> ALGORITHMS = List.of("EC", "RSA", "Ed25519", "Ed448");

    private Pkcs8Key() {}

    /** The key, or IllegalArgumentException naming what is wrong (never the key's bytes). */
    static PrivateKey parse(byte[] pem) {
        Matcher m = PEM.matcher(new String(pem, StandardCharsets.US_ASCII));
        if (!m.find()) {
            throw new IllegalArgumentException("no \"BEGIN PRIVATE KEY\" block");
        }
        PKCS8EncodedKeySpec spec;
        try {
            spec = new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(m.group(1)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the private key block is not base64");
        }
        for (String algorithm : ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                // not this algorithm: try the next
            }
        }
        throw new IllegalArgumentException("the private key is none of " + ALGORITHMS);
    }
}
