package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http2.Http2SecurityUtil;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientSslContextTest {

    /** TlsIT proves real etcd accepts the list; this, that ChaCha20 is what the client asks for first. */
    @Test
    void offersChaCha20FirstAndEveryOtherSuiteGrpcWouldOffer() {
        TestPki pki = new TestPki("etcd-ca");
        TestPki.Issued client = pki.client("root");
        List<String> offered = ClientSslContext.of(
                        new EtcdConnection.ClientTls(pki.caPem(), client.certPem(), client.keyPem()))
                .cipherSuites();

        assertThat(offered.getFirst()).contains("CHACHA20");
        assertThat(offered.stream().takeWhile(s -> s.contains("CHACHA20"))).hasSizeGreaterThanOrEqualTo(2);
        assertThat(offered.stream().dropWhile(s -> s.contains("CHACHA20"))).noneMatch(s -> s.contains("CHACHA20"));
        assertThat(offered).contains("TLS_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");
        assertThat(Http2SecurityUtil.CIPHERS).containsAll(offered);
    }
}
