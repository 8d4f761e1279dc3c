package io.etcdoperator.localkube;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceAccountKeysTest {

    @TempDir
    Path dir;

    @Test
    void writesAMatchingPemKeyPair() throws Exception {
        ServiceAccountKeys keys = ServiceAccountKeys.generate(dir);
        KeyFactory rsa = KeyFactory.getInstance("RSA");
        PrivateKey privateKey = rsa.generatePrivate(new PKCS8EncodedKeySpec(der(keys.privateKey(), "PRIVATE KEY")));
        PublicKey publicKey = rsa.generatePublic(new X509EncodedKeySpec(der(keys.publicKey(), "PUBLIC KEY")));

        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(privateKey);
        signer.update("token".getBytes());
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance("SHA256withRSA");
        verifier.initVerify(publicKey);
        verifier.update("token".getBytes());

        assertThat(verifier.verify(signature)).isTrue();
    }

    @Test
    void privateKeyIsReadableByItsOwnerOnly() throws Exception {
        ServiceAccountKeys keys = ServiceAccountKeys.generate(dir);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(keys.privateKey())))
                .isEqualTo("rw-------");
    }

    @Test
    void pemLinesAreAtMost64Characters() {
        String pem = ServiceAccountKeys.pem("PUBLIC KEY", new byte[200]);

        assertThat(pem).startsWith("-----BEGIN PUBLIC KEY-----\n").endsWith("-----END PUBLIC KEY-----\n");
        assertThat(pem.lines()).allMatch(line -> line.length() <= 64);
    }

    private static byte[] der(Path pem, String type) throws Exception {
        String body = Files.readString(pem)
                .replace("-----BEGIN " + type + "-----", "")
                .replace("-----END " + type + "-----", "");
        return Base64.getMimeDecoder().decode(body);
    }
}
