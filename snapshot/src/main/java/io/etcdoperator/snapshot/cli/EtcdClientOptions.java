package io.etcdoperator.snapshot.cli;

import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.snapshot.SnapshotFailure;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/** How the agent dials etcd: TLS material and the password come from files (mounted Secrets), never from flags. */
final class EtcdClientOptions {

    @Option(
            names = "--endpoints",
            required = true,
            split = ",",
            description = "etcd client URLs (voters), comma-separated.")
    List<URI> endpoints;

    @Option(names = "--ca-file", description = "PEM CA that signed the etcd server certificate.")
    Path caFile;

    @Option(names = "--cert-file", description = "PEM client certificate (mTLS).")
    Path certFile;

    @Option(names = "--key-file", description = "PKCS#8 PEM client key (mTLS).")
    Path keyFile;

    @Option(names = "--user", description = "etcd user when authentication is on.")
    String user;

    @Option(names = "--password-file", description = "File holding the etcd user's password.")
    Path passwordFile;

    @Option(names = "--dial-timeout", defaultValue = "PT10S", description = "Bound on each control call (ISO-8601).")
    Duration dialTimeout;

    EtcdConnection connection() {
        Optional<EtcdConnection.ClientTls> tls = Optional.empty();
        if (caFile != null) {
            if ((certFile == null) != (keyFile == null)) {
                throw new SnapshotFailure(
                        SnapshotFailure.Reason.INVALID_REQUEST, "--cert-file and --key-file go together");
            }
            tls = Optional.of(new EtcdConnection.ClientTls(
                    read(caFile), certFile == null ? null : read(certFile), keyFile == null ? null : read(keyFile)));
        }
        Optional<EtcdConnection.Credentials> credentials = Optional.empty();
        if (user != null && !user.isBlank()) {
            if (passwordFile == null) {
                throw new SnapshotFailure(SnapshotFailure.Reason.INVALID_REQUEST, "--user needs --password-file");
            }
            credentials = Optional.of(
                    new EtcdConnection.Credentials(user, EtcdConnection.Credentials.password(read(passwordFile))));
        }
        return new EtcdConnection(endpoints, tls, credentials, dialTimeout);
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INVALID_REQUEST,
                    "cannot read " + file + ": " + e.getClass().getSimpleName());
        }
    }
}
