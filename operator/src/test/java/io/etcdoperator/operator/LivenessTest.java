package io.etcdoperator.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RuntimeInfo;
import io.javaoperatorsdk.operator.health.EventSourceHealthIndicator;
import io.javaoperatorsdk.operator.health.Status;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** /healthz from JOSDK's runtime info: a broken informer is a 503 that names it; starting up is not a failure. */
class LivenessTest {

    @Test
    void allSourcesHealthyIsOk() {
        assertThat(Liveness.of(true, Map.of())).isEqualTo(new Liveness.Answer(200, "ok"));
        assertThat(Liveness.of(true, Map.of("etcdclusterreconciler", List.of())))
                .isEqualTo(new Liveness.Answer(200, "ok"));
    }

    @Test
    void anUnhealthySourceIsA503NamingEverySourceByController() {
        var answer = Liveness.of(
                true,
                Map.of(
                        "etcdsnapshotreconciler", List.of("JobInformer"),
                        "etcdclusterreconciler", List.of("PodInformer", "ControllerResourceEventSource")));
        assertThat(answer.code()).isEqualTo(503);
        assertThat(answer.body())
                .isEqualTo("unhealthy event sources: etcdclusterreconciler/ControllerResourceEventSource, "
                        + "etcdclusterreconciler/PodInformer, etcdsnapshotreconciler/JobInformer");
    }

    @Test
    void beforeTheStartTheProbeWaitsForTheCacheSync() {
        assertThat(Liveness.of(false, Map.of("etcdclusterreconciler", List.of("PodInformer"))))
                .isEqualTo(new Liveness.Answer(200, "starting"));
    }

    @Test
    void readsJosdksRuntimeInfo() {
        EventSourceHealthIndicator broken = () -> Status.UNHEALTHY;
        try (var client = new KubernetesClientBuilder().build()) {
            var operator = new Operator(o -> o.withKubernetesClient(client));
            var runtime = new RuntimeInfo(operator) {
                @Override
                public boolean isStarted() {
                    return true;
                }

                @Override
                public Map<String, Map<String, EventSourceHealthIndicator>> unhealthyEventSources() {
                    return Map.of(
                            "etcdmemberreconciler", Map.of("PodInformer", broken), "etcdclusterreconciler", Map.of());
                }
            };
            assertThat(Liveness.of(runtime))
                    .isEqualTo(new Liveness.Answer(503, "unhealthy event sources: etcdmemberreconciler/PodInformer"));
            assertThat(Liveness.of(new RuntimeInfo(operator))).isEqualTo(new Liveness.Answer(200, "starting"));
        }
    }

    @Test
    void healthzServesTheAnswer() throws Exception {
        var loopback = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0);
        var answer = new Liveness.Answer(503, "unhealthy event sources: etcdmemberreconciler/PodInformer");
        try (var endpoints = new OperatorEndpoints(
                        loopback,
                        loopback,
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        () -> answer,
                        () -> true);
                var http = HttpClient.newHttpClient()) {
            var response = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoints.probePort() + "/healthz"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(503);
            assertThat(response.body()).isEqualTo(answer.body());
        }
    }
}
