package io.etcdoperator.localkube;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/** The RSA key pair with which kube-apiserver signs and checks service-account tokens, written as PEM files. */
record ServiceAccountKeys(Path privateKey, Path publicKey) {

    static ServiceAccountKeys generate(Path dir) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair pair = generator.generateKeyPair();
            Files.createDirectories(dir);
            Path privateKey = dir.resolve("sa.key");
            Path publicKey = dir.resolve("sa.pub");
            writeOwnerOnly(privateKey, pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
            Files.writeString(publicKey, pem("PUBLIC KEY", pair.getPublic().getEncoded()));
            return new ServiceAccountKeys(privateKey, publicKey);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK offers no RSA key generator", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write service-account keys into " + dir, e);
        }
    }

    /** PKCS#8 for the private key and X.509 SubjectPublicKeyInfo for the public one, as Go's keyutil reads them. */
    static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }

    static void writeOwnerOnly(Path file, String content) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, content);
    }
}
