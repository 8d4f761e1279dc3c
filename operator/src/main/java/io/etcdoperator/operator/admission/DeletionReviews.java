package io.etcdoperator.operator.admission;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponseBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** POST /validate-deletion: an AdmissionReview v1 in, the same review with DeletionProtection's answer out. */
public final class DeletionReviews implements HttpHandler {

    public static final String PATH = "/validate-deletion";
    private static final Logger LOG = LoggerFactory.getLogger(DeletionReviews.class);
    private static final int MAX_BODY = 3 * 1024 * 1024; // the API server's own request limit is 3 MiB

    private final DeletionProtection protection;
    private final KubernetesSerialization json = new KubernetesSerialization();

    public DeletionReviews(DeletionProtection protection) {
        this.protection = protection;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod())) {
                send(exchange, 405, "POST an AdmissionReview", "text/plain");
                return;
            }
            AdmissionRequest request;
            try (InputStream body = exchange.getRequestBody()) {
                AdmissionReview review = json.unmarshal(
                        new String(body.readNBytes(MAX_BODY), StandardCharsets.UTF_8), AdmissionReview.class);
                request = review == null ? null : review.getRequest();
            } catch (RuntimeException e) {
                request = null;
            }
            if (request == null || request.getUid() == null) {
                send(exchange, 400, "not an AdmissionReview with a request", "text/plain");
                return;
            }
            send(exchange, 200, json.asJson(answer(request)), "application/json");
        }
    }

    AdmissionReview answer(AdmissionRequest request) {
        Deletion deletion = Deletion.of(request);
        DeletionProtection.Verdict verdict = protection.decide(deletion);
        var response = new AdmissionResponseBuilder().withUid(request.getUid()).withAllowed(verdict.allowed());
        if (!verdict.allowed()) {
            response.withStatus(new StatusBuilder()
                    .withCode(403)
                    .withReason("Forbidden")
                    .withMessage(verdict.message())
                    .build());
            LOG.atInfo()
                    .addKeyValue("user", deletion.username())
                    .addKeyValue("resource", deletion.resource())
                    .addKeyValue("namespace", deletion.namespace())
                    .addKeyValue("name", deletion.name())
                    .log("deletion refused by deletion protection");
        }
        return new AdmissionReviewBuilder()
                .withApiVersion("admission.k8s.io/v1")
                .withKind("AdmissionReview")
                .withResponse(response.build())
                .build();
    }

    private static void send(HttpExchange exchange, int code, String body, String contentType) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
