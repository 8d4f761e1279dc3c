package io.etcdoperator.etcd;

import io.grpc.netty.GrpcSslContexts;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.ByteArrayInputStream;
import javax.net.ssl.SSLException;

/** Netty client TLS context from the PEM bytes of {@link EtcdConnection.ClientTls}; shared by jetcd and our own channels. */
final class ClientSslContext {

  private ClientSslContext() {}

  static SslContext of(EtcdConnection.ClientTls tls) {
    try {
      SslContextBuilder builder = GrpcSslContexts.forClient();
      if (tls.caPem() != null) {
        builder.trustManager(new ByteArrayInputStream(tls.caPem()));
      }
      if (tls.mutual()) {
        builder.keyManager(new ByteArrayInputStream(tls.certPem()), new ByteArrayInputStream(tls.keyPem()));
      }
      return builder.build();
    } catch (SSLException | IllegalArgumentException e) {
      // Netty's message names the failing part (certificate chain, key), never the key material itself.
      throw new EtcdException.TlsRejected("client TLS material is not usable PEM (key must be PKCS#8): "
          + e.getMessage(), e);
    }
  }
}
