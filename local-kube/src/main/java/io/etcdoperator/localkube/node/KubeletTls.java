package io.etcdoperator.localkube.node;

import io.etcdoperator.localkube.network.HostCommand;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A self-signed serving certificate for the simulated kubelets (127.0.0.1), made with the JDK's keytool. The API
 * server does not verify kubelet certificates by default, so nothing needs to trust it.
 */
public final class KubeletTls {

    private KubeletTls() {}

    public static SSLContext create(Path dir) {
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        char[] password = Base64.getUrlEncoder().encodeToString(random).toCharArray();
        Path keystore = dir.resolve("kubelet.p12");
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(keystore);
            // the password goes through an env var, so it shows in no command line
            HostCommand.run(
                    List.of(
                            Path.of(System.getProperty("java.home"), "bin", "keytool")
                                    .toString(),
                            "-genkeypair",
                            "-alias",
                            "kubelet",
                            "-keyalg",
                            "EC",
                            "-groupname",
                            "secp256r1",
                            "-dname",
                            "CN=local-kube-kubelet",
                            "-ext",
                            "SAN=ip:127.0.0.1,dns:localhost",
                            "-validity",
                            "3650",
                            "-storetype",
                            "PKCS12",
                            "-keystore",
                            keystore.toString(),
                            "-storepass:env",
                            "LK_STOREPASS"),
                    Map.of("LK_STOREPASS", new String(password)));
            KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(keystore)) {
                store.load(in, password);
            }
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the kubelet certificate", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot load the kubelet certificate", e);
        }
    }
}
