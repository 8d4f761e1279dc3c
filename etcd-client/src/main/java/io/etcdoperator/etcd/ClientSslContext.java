package io.etcdoperator.etcd;

import io.grpc.netty.GrpcSslContexts;
import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import java.io.ByteArrayInputStream;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import javax.net.ssl.SSLException;

/** Netty client TLS context from the PEM bytes of {@link EtcdConnection.ClientTls}; shared by jetcd and our own channels. */
final class ClientSslContext {

    /**
     * gRPC's HTTP/2 suites with ChaCha20-Poly1305 first: the operator's image compiles with C1 only, which has no
     * AES-GCM intrinsics, and there ChaCha20 costs a quarter of the CPU (docs/benchmarks.md). etcd takes the client's
     * first choice when it is not AES-GCM; a server limited to AES suites still finds them in the list.
     */
    static final List<String> CHACHA20_FIRST = Http2SecurityUtil.CIPHERS.stream()
            .sorted(Comparator.comparing(suite -> !suite.contains("CHACHA20")))
            .toList();

    private ClientSslContext() {}

    static SslContext of(EtcdConnection.ClientTls tls) {
        if (tls.mutual()) {
            requireCurrent(tls.certPem(), Instant.now());
        }
        try {
            SslContextBuilder builder =
                    GrpcSslContexts.forClient().ciphers(CHACHA20_FIRST, SupportedCipherSuiteFilter.INSTANCE);
            if (tls.caPem() != null) {
                builder.trustManager(new ByteArrayInputStream(tls.caPem()));
            }
            if (tls.mutual()) {
                builder.keyManager(Pkcs8Key.parse(tls.keyPem()), certificates(tls.certPem()));
            }
            return builder.build();
        } catch (SSLException | CertificateException | IllegalArgumentException e) {
            // Netty's message names the failing part (certificate chain, key), never the key material itself.
            throw new EtcdException.TlsRejected(
                    "client TLS material is not usable PEM (key must be PKCS#8): " + e.getMessage(), e);
        }
    }

    /** The certificate chain of a PEM bundle, leaf first. */
    private static X509Certificate[] certificates(byte[] pem) throws CertificateException {
        return CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem)).stream()
                .map(X509Certificate.class::cast)
                .toArray(X509Certificate[]::new);
    }

    /**
     * etcd 3.4 answers an expired client certificate with a bare "bad_certificate" alert; checking our own certificate
     * first turns that into an error that says what to fix.
     */
    static void requireCurrent(byte[] certPem, Instant now) {
        X509Certificate cert;
        try {
            cert = (X509Certificate)
                    CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(certPem));
        } catch (CertificateException | ClassCastException e) {
            return; // netty reports unreadable material below, with its own message
        }
        Instant notBefore = cert.getNotBefore().toInstant();
        Instant notAfter = cert.getNotAfter().toInstant();
        if (now.isAfter(notAfter) || now.isBefore(notBefore)) {
            throw new EtcdException.TlsExpired(
                    "client certificate " + cert.getSubjectX500Principal().getName() + " is valid only from "
                            + notBefore + " to " + notAfter + "; renew it",
                    null);
        }
    }
}
