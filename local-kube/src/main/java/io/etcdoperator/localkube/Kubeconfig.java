package io.etcdoperator.localkube;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/** An admin kubeconfig file for the local API server: its URL, the CA of its serving certificate, a bearer token. */
record Kubeconfig(Path file, URI server) {

    static final String CONTEXT = "local-kube";

    /** Writes the file readable by its owner only, since it carries the admin token. */
    static Kubeconfig write(Path file, URI server, Path servingCertificate, String token) {
        try {
            String ca = Base64.getEncoder().encodeToString(Files.readAllBytes(servingCertificate));
            ServiceAccountKeys.writeOwnerOnly(file, """
                    apiVersion: v1
                    kind: Config
                    clusters:
                    - name: %1$s
                      cluster:
                        server: %2$s
                        certificate-authority-data: %3$s
                    users:
                    - name: admin
                      user:
                        token: %4$s
                    contexts:
                    - name: %1$s
                      context:
                        cluster: %1$s
                        user: admin
                        namespace: default
                    current-context: %1$s
                    """.formatted(CONTEXT, server, ca, token));
            return new Kubeconfig(file, server);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write kubeconfig " + file, e);
        }
    }

    /** The apiextensions server's: its CA file and a client certificate instead of a token, owner-readable too. */
    static Path writeWithClientCertificate(Path file, URI server, Path ca, LocalCa.KeyFiles user) {
        try {
            ServiceAccountKeys.writeOwnerOnly(file, """
                    apiVersion: v1
                    kind: Config
                    clusters:
                    - name: apiext
                      cluster:
                        server: %s
                        certificate-authority: %s
                    users:
                    - name: admin
                      user:
                        client-certificate: %s
                        client-key: %s
                    contexts:
                    - name: apiext
                      context:
                        cluster: apiext
                        user: admin
                        namespace: default
                    current-context: apiext
                    """.formatted(server, ca, user.certificate(), user.key()));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write kubeconfig " + file, e);
        }
    }
}
