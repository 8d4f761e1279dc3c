package io.etcdoperator.operator.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.pki.CertificateAuthority;
import io.etcdoperator.pki.CertifiedKey;
import io.etcdoperator.pki.LeafProfile;
import io.etcdoperator.pki.SubjectAltNames;
import io.etcdoperator.pki.Validity;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The webhook over real HTTPS on loopback, trusted through its CA as the API server trusts it via caBundle. */
public class WebhookServerTest {

    static final DeletionCases CASES = DeletionCases.load();
    static CertificateAuthority ca;
    static WebhookServer server;
    static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        ca = CertificateAuthority.create("test", Validity.starting(Instant.now(), Duration.ofDays(1), Duration.ZERO));
        CertifiedKey serving = ca.issue(
                LeafProfile.SERVER,
                "localhost",
                new SubjectAltNames(List.of("localhost"), List.of("127.0.0.1")),
                Validity.starting(Instant.now(), Duration.ofDays(1), Duration.ZERO));
        server = new WebhookServer(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                serving,
                ca.certificate(),
                new DeletionReviews(new DeletionProtection(CASES.operatorUser())));
        client = HttpClient.newBuilder().sslContext(trusting(ca)).build();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void refusesAPersonsDeleteOfAMemberWithTheMessageAndTheRequestUid() throws Exception {
        DeletionCases.Case refused = named("a person deletes a member");
        HttpResponse<String> response = post(review(refused));
        assertThat(response.statusCode()).isEqualTo(200);
        AdmissionReview answer = DeletionCases.JSON.unmarshal(response.body(), AdmissionReview.class);
        assertThat(answer.getApiVersion()).isEqualTo("admission.k8s.io/v1");
        assertThat(answer.getKind()).isEqualTo("AdmissionReview");
        assertThat(answer.getResponse().getUid()).isEqualTo(refused.request().get("uid"));
        assertThat(answer.getResponse().getAllowed()).isFalse();
        assertThat(answer.getResponse().getStatus().getCode()).isEqualTo(403);
        assertThat(answer.getResponse().getStatus().getMessage()).isEqualTo(refused.message());
    }

    @Test
    void allowsTheBreakGlassDelete() throws Exception {
        HttpResponse<String> response = post(review(named("a person deletes a member annotated for deletion")));
        AdmissionReview answer = DeletionCases.JSON.unmarshal(response.body(), AdmissionReview.class);
        assertThat(answer.getResponse().getAllowed()).isTrue();
        assertThat(answer.getResponse().getStatus()).isNull();
    }

    @Test
    void answersBadRequestToWhatIsNoReview() throws Exception {
        assertThat(post("{\"kind\":\"AdmissionReview\"}").statusCode()).isEqualTo(400);
        assertThat(post("not json").statusCode()).isEqualTo(400);
    }

    @Test
    void aClientThatDoesNotTrustTheCaCannotConnect() throws Exception {
        CertificateAuthority other = CertificateAuthority.create(
                "other", Validity.starting(Instant.now(), Duration.ofDays(1), Duration.ZERO));
        HttpClient stranger =
                HttpClient.newBuilder().sslContext(trusting(other)).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> stranger.send(request("{}"), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(SSLHandshakeException.class);
    }

    static DeletionCases.Case named(String name) {
        return CASES.cases().stream()
                .filter(c -> c.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    static String review(DeletionCases.Case c) {
        return DeletionCases.JSON.asJson(
                Map.of("apiVersion", "admission.k8s.io/v1", "kind", "AdmissionReview", "request", c.request()));
    }

    static HttpResponse<String> post(String body) throws Exception {
        return client.send(request(body), HttpResponse.BodyHandlers.ofString());
    }

    static HttpRequest request(String body) {
        return HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + DeletionReviews.PATH))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    /** A client context that trusts only {@code authority}. */
    public static SSLContext trusting(CertificateAuthority authority) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry("ca", authority.certificate());
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
