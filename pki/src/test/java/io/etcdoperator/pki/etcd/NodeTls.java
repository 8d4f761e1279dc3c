package io.etcdoperator.pki.etcd;

import io.etcdoperator.pki.CertifiedKey;
import io.etcdoperator.pki.TrustBundle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What one etcd member is started with: server and peer leaves and the CA bundle it trusts on both planes. */
record NodeTls(CertifiedKey server, CertifiedKey peer, TrustBundle trust) {

    static final String SERVER_CERT = "server.crt";
    static final String SERVER_KEY = "server.key";
    static final String PEER_CERT = "peer.crt";
    static final String PEER_KEY = "peer.key";
    static final String CA = "ca.crt";

    /** Writes the files etcd reads at start, the way a Secret volume would present them. */
    void writeTo(Path dir) {
        try {
            Files.createDirectories(dir);
            Files.write(dir.resolve(SERVER_CERT), server.certificatePem());
            Files.write(dir.resolve(SERVER_KEY), server.privateKeyPem());
            Files.write(dir.resolve(PEER_CERT), peer.certificatePem());
            Files.write(dir.resolve(PEER_KEY), peer.privateKeyPem());
            Files.write(dir.resolve(CA), trust.pem());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
