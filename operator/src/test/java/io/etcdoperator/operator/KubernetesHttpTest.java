package io.etcdoperator.operator;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.etcdoperator.operator.admission.WebhookServer;
import io.etcdoperator.operator.admission.WebhookServerTest;
import io.etcdoperator.pki.CertificateAuthority;
import io.etcdoperator.pki.CertifiedKey;
import io.etcdoperator.pki.LeafProfile;
import io.etcdoperator.pki.SubjectAltNames;
import io.etcdoperator.pki.Validity;
import io.fabric8.kubernetes.client.http.TlsVersion;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.Test;

class KubernetesHttpTest {

    private static final TlsVersion[] VERSIONS = {TlsVersion.TLS_1_3, TlsVersion.TLS_1_2};

    @Test
    void chaCha20SuitesComeFirstAndTheRestKeepTheirOrder() {
        assertThat(KubernetesHttp.chaCha20First(new String[] {
                    "TLS_AES_256_GCM_SHA384",
                    "TLS_AES_128_GCM_SHA256",
                    "TLS_CHACHA20_POLY1305_SHA256",
                    "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
                    "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"
                }))
                .containsExactly(
                        "TLS_CHACHA20_POLY1305_SHA256",
                        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
                        "TLS_AES_256_GCM_SHA384",
                        "TLS_AES_128_GCM_SHA256",
                        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384");
    }

    @Test
    void completesOnVirtualThreads() throws Exception {
        HttpClient.Builder builder = HttpClient.newBuilder();
        new KubernetesHttp(VERSIONS).additionalConfig(builder);
        HttpClient client = builder.build();

        CountDownLatch ran = new CountDownLatch(1);
        AtomicInteger platform = new AtomicInteger();
        client.executor().orElseThrow().execute(() -> {
            if (!Thread.currentThread().isVirtual()) {
                platform.incrementAndGet();
            }
            ran.countDown();
        });
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(platform.get()).as("completions on platform threads").isZero();
    }

    /** A server that takes the client's preference (as Go's does when the client puts ChaCha20 first) gets it. */
    @Test
    void aServerThatFollowsTheClientNegotiatesChaCha20() throws Exception {
        Validity day = Validity.starting(Instant.now(), Duration.ofDays(1), Duration.ZERO);
        CertificateAuthority ca = CertificateAuthority.create("test", day);
        CertifiedKey serving = ca.issue(
                LeafProfile.SERVER, "localhost", new SubjectAltNames(List.of("localhost"), List.of("127.0.0.1")), day);
        AtomicReference<String> negotiated = new AtomicReference<>();
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(WebhookServer.sslContext(serving, ca.certificate())) {
            @Override
            public void configure(HttpsParameters parameters) {
                SSLParameters ssl = getSSLContext().getDefaultSSLParameters();
                ssl.setUseCipherSuitesOrder(false);
                parameters.setSSLParameters(ssl);
            }
        });
        server.createContext("/", exchange -> {
            negotiated.set(((HttpsExchange) exchange).getSSLSession().getCipherSuite());
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
        try {
            HttpClient.Builder builder = HttpClient.newBuilder().sslContext(WebhookServerTest.trusting(ca));
            new KubernetesHttp(VERSIONS).additionalConfig(builder);
            HttpResponse<Void> response = builder.build()
                    .send(
                            HttpRequest.newBuilder(URI.create("https://localhost:"
                                            + server.getAddress().getPort()))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding());
            assertThat(response.statusCode()).isEqualTo(204);
            assertThat(negotiated.get()).isEqualTo("TLS_CHACHA20_POLY1305_SHA256");
        } finally {
            server.stop(0);
        }
    }
}
