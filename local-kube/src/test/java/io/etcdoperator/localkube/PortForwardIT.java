package io.etcdoperator.localkube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdoperator.localkube.node.ImageCatalogue;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.LocalPortForward;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl port-forward} through the real 1.20 API server to a simulated node's kubelet: fabric8's WebSocket
 * client on one end, an etcd Pod on the other, every byte passing the API server's upgrade proxy unchanged.
 */
class PortForwardIT {

    private static final String NS = "forward-it";
    private static LocalKubernetes cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        Path workDir = Path.of("target", "port-forward-it").toAbsolutePath();
        LocalKubernetesIT.deleteRecursively(workDir);
        cluster = LocalKubernetes.start(
                workDir,
                LocalKubernetesOptions.defaults()
                        .withNodes(1)
                        .withImages(ImageCatalogue.withEtcdImages().build()));
        client = cluster.client();
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(NS)
                        .endMetadata()
                        .build())
                .create();
        Eventually.await(
                "default service account",
                Duration.ofSeconds(30),
                () -> client.serviceAccounts()
                        .inNamespace(NS)
                        .withName("default")
                        .get());
        client.pods().inNamespace(NS).resource(etcdPod()).create();
        Eventually.await("etcd pod ready", Duration.ofSeconds(60), () -> {
            Pod pod = client.pods().inNamespace(NS).withName("solo").get();
            return pod != null
                            && pod.getStatus().getConditions() != null
                            && pod.getStatus().getConditions().stream()
                                    .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()))
                    ? pod
                    : null;
        });
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void forwardsRequestsAndLargeResponsesToThePodPort() throws Exception {
        try (LocalPortForward forward =
                client.pods().inNamespace(NS).withName("solo").portForward(2379)) {
            String base = "http://127.0.0.1:" + forward.getLocalPort();
            Instant started = Instant.now();
            assertThat(get(base + "/health")).contains("\"health\":\"true\"");
            System.out.printf(
                    "first request through the port forward answered in %d ms%n",
                    Duration.between(started, Instant.now()).toMillis());
            // /metrics is far larger than one frame each way; a fresh connection opens a second WebSocket
            String metrics = get(base + "/metrics");
            assertThat(metrics.length()).isGreaterThan(64 * 1024);
            assertThat(metrics).contains("etcd_server_has_leader 1");
            assertThat(get(base + "/version")).contains("\"etcdserver\":\"3.5.16\"");
            assertThat(forward.errorOccurred())
                    .as("errors: %s %s", forward.getClientThrowables(), forward.getServerThrowables())
                    .isFalse();
        }
    }

    @Test
    void aPortNobodyListensOnEndsTheConnection() throws Exception {
        try (LocalPortForward forward =
                client.pods().inNamespace(NS).withName("solo").portForward(2999)) {
            assertThatThrownBy(() -> get("http://127.0.0.1:" + forward.getLocalPort() + "/health"))
                    .isInstanceOf(IOException.class);
        }
    }

    private static String get(String url) throws IOException, InterruptedException {
        // a new client per call: each request gets its own TCP connection, hence its own WebSocket
        try (HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(10))
                    .build();
            return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
        }
    }

    private static Pod etcdPod() {
        return new PodBuilder()
                .withNewMetadata()
                .withName("solo")
                .endMetadata()
                .withNewSpec()
                .withTerminationGracePeriodSeconds(5L)
                .addNewContainer()
                .withName("etcd")
                .withImage("quay.io/coreos/etcd:v3.5.16")
                .withCommand("/usr/local/bin/etcd")
                .withArgs(
                        "--name=solo",
                        "--data-dir=/var/lib/etcd",
                        "--listen-client-urls=http://0.0.0.0:2379",
                        "--advertise-client-urls=http://$(POD_IP):2379",
                        "--listen-peer-urls=http://0.0.0.0:2380",
                        "--initial-advertise-peer-urls=http://$(POD_IP):2380",
                        "--initial-cluster=solo=http://$(POD_IP):2380")
                .withEnv(new EnvVarBuilder()
                        .withName("POD_IP")
                        .withNewValueFrom()
                        .withNewFieldRef()
                        .withFieldPath("status.podIP")
                        .endFieldRef()
                        .endValueFrom()
                        .build())
                .withNewReadinessProbe()
                .withNewHttpGet()
                .withPath("/health")
                .withNewPort(2379)
                .endHttpGet()
                .withPeriodSeconds(1)
                .endReadinessProbe()
                .addNewVolumeMount()
                .withName("data")
                .withMountPath("/var/lib/etcd")
                .endVolumeMount()
                .endContainer()
                .addNewVolume()
                .withName("data")
                .withNewEmptyDir()
                .endEmptyDir()
                .endVolume()
                .endSpec()
                .build();
    }
}
