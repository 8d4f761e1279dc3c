package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A client key read with the JDK's providers, so netty never reaches for BouncyCastle's. */
class Pkcs8KeyTest {

    private static byte[] pem(String type, byte[] der) {
        return ("-----BEGIN " + type + "-----\n"
                        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der) + "\n-----END " + type
                        + "-----\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    @ParameterizedTest
    @ValueSource(strings = {"EC", "RSA", "Ed25519"})
    void readsAPkcs8KeyOfEveryAlgorithmEtcdAccepts(String algorithm) throws Exception {
        KeyPair pair = KeyPairGenerator.getInstance(algorithm).generateKeyPair();
        assertThat(Pkcs8Key.parse(pem("PRIVATE KEY", pair.getPrivate().getEncoded())))
                .isEqualTo(pair.getPrivate());
    }

    @Test
    void aTraditionalOrBrokenKeyIsRefusedWithoutItsBytes() throws Exception {
        byte[] der = KeyPairGenerator.getInstance("EC")
                .generateKeyPair()
                .getPrivate()
                .getEncoded();
        assertThatThrownBy(() -> Pkcs8Key.parse(pem("EC PRIVATE KEY", der)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("BEGIN PRIVATE KEY");
        byte[] broken = der.clone();
        broken[broken.length / 2] ^= 0x5a;
        broken[4] ^= 0x5a;
        assertThatThrownBy(() -> Pkcs8Key.parse(pem("PRIVATE KEY", broken)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining(
                        Base64.getEncoder().encodeToString(broken).substring(0, 16));
    }
}
