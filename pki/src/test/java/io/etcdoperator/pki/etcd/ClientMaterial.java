package io.etcdoperator.pki.etcd;

import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.pki.CertifiedKey;
import io.etcdoperator.pki.TrustBundle;
import io.grpc.netty.GrpcSslContexts;
import io.netty.handler.ssl.SslContext;
import java.io.ByteArrayInputStream;
import java.util.Optional;
import javax.net.ssl.SSLException;

/** A client's side of TLS: the CAs it trusts and, for mTLS, its own certificate. */
record ClientMaterial(TrustBundle trust, Optional<CertifiedKey> identity) {

    static ClientMaterial trusting(TrustBundle trust) {
        return new ClientMaterial(trust, Optional.empty());
    }

    static ClientMaterial mutual(TrustBundle trust, CertifiedKey identity) {
        return new ClientMaterial(trust, Optional.of(identity));
    }

    EtcdConnection.ClientTls forPort() {
        return new EtcdConnection.ClientTls(
                trust.pem(),
                identity.map(CertifiedKey::certificatePem).orElse(null),
                identity.map(CertifiedKey::privateKeyPem).orElse(null));
    }

    /** For the test's own jetcd writer, which bypasses the port. */
    SslContext nettyContext() {
        try {
            var builder = GrpcSslContexts.forClient().trustManager(new ByteArrayInputStream(trust.pem()));
            identity.ifPresent(id -> builder.keyManager(
                    new ByteArrayInputStream(id.certificatePem()), new ByteArrayInputStream(id.privateKeyPem())));
            return builder.build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot build the test client's TLS context", e);
        }
    }
}
