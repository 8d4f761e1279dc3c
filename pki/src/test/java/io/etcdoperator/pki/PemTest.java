package io.etcdoperator.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.List;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.Test;

class PemTest {

    private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
    private final CertificateAuthority ca = CertificateAuthority.create("pem", RenewalPolicy.DEFAULT.caValidity(NOW));
    private final CertifiedKey leaf = ca.issue(
            LeafProfile.OPERATOR_CLIENT, "root", SubjectAltNames.NONE, RenewalPolicy.DEFAULT.leafValidity(NOW));

    @Test
    void certificateAndPkcs8KeyRoundTrip() {
        String keyText = new String(leaf.privateKeyPem(), StandardCharsets.US_ASCII);
        assertThat(keyText).startsWith("-----BEGIN PRIVATE KEY-----");

        CertifiedKey back = CertifiedKey.fromPem(leaf.certificatePem(), leaf.privateKeyPem());

        assertThat(back.certificate()).isEqualTo(leaf.certificate());
        assertThat(back.privateKey().getEncoded()).isEqualTo(leaf.privateKey().getEncoded());
    }

    @Test
    void severalCertificatesKeepTheirOrder() {
        byte[] two = Pem.encode(List.of(ca.certificate(), leaf.certificate()));

        assertThat(Pem.certificates(two)).containsExactly(ca.certificate(), leaf.certificate());
        assertThat(Pem.certificate(two)).isEqualTo(ca.certificate());
    }

    @Test
    void aTraditionalEcKeyAsOpensslWritesItIsReadToo() throws Exception {
        // BouncyCastle's own keys carry the curve inside the SEC1 structure, as openssl writes it
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", new BouncyCastleProvider());
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        PrivateKey key = generator.generateKeyPair().getPrivate();
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(key);
        }
        assertThat(text.toString()).startsWith("-----BEGIN EC PRIVATE KEY-----");

        PrivateKey read = Pem.privateKey(text.toString().getBytes(StandardCharsets.US_ASCII));

        assertThat(read.getAlgorithm()).isEqualTo("EC");
        assertThat(((ECPrivateKey) read).getS()).isEqualTo(((ECPrivateKey) key).getS());
    }

    @Test
    void unreadableInputFailsWithoutEchoingIt() {
        byte[] garbage = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1ieXRlcw==\n-----END PRIVATE KEY-----\n"
                .getBytes(StandardCharsets.US_ASCII);

        assertThatThrownBy(() -> Pem.privateKey(garbage))
                .isInstanceOf(PkiException.class)
                .hasMessageNotContaining("c2VjcmV0")
                .hasNoCause();
        assertThatThrownBy(() -> Pem.certificate("hello".getBytes(StandardCharsets.US_ASCII)))
                .isInstanceOf(PkiException.class)
                .hasMessageContaining("no PEM certificate");
        assertThatThrownBy(() -> Pem.privateKey(leaf.certificatePem()))
                .isInstanceOf(PkiException.class)
                .hasMessageContaining("no unencrypted PEM private key");
    }
}
