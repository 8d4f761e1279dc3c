package io.etcdoperator.localkube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * kube-apiserver 1.20 serving etcd-operator.cozystack.io/v1alpha2 from the 1.36 apiextensions-apiserver through its
 * aggregator: one endpoint for clients, CEL enforced, authentication and RBAC delegated to kube-apiserver, and the
 * 1.20 controller-manager (garbage collector, namespace controller) working on the aggregated kinds.
 */
class AggregatedApiIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final Duration GC_DEADLINE = Duration.ofSeconds(120);
    private static final String GROUP = "etcd-operator.cozystack.io";
    private static final String API_VERSION = GROUP + "/v1alpha2";
    private static final Path PROJECT_CRDS = Path.of("..", "config", "crd", "bases");
    private static final String NAMESPACE = "default";

    private static ControlPlane controlPlane;
    private static ApiExtensionsServer apiext;
    private static KubernetesClient client;

    @BeforeAll
    static void start() throws InterruptedException, IOException {
        Path workDir = Path.of("target", "aggregated-api-it");
        deleteRecursively(workDir);
        controlPlane = ControlPlane.start(workDir.resolve("control-plane"));
        apiext = ApiExtensionsServer.startBehind(controlPlane, workDir.resolve("apiext"));
        // every CRD of config/crd/bases created on the 1.36 server, their one group version registered
        assertThat(apiext.serveCustomResourceDefinitions(PROJECT_CRDS)).containsExactly(API_VERSION);
        client = controlPlane.newClient();
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (apiext != null) {
            apiext.close();
        }
        if (controlPlane != null) {
            controlPlane.close();
        }
    }

    @Test
    void anIllegalChangeIsRefusedByTheApiServerWithTheCrdsMessage() {
        GenericKubernetesResource created =
                clusters().resource(cluster("shrink", "2Gi")).create();
        assertThat(spec(created)).containsEntry("replicas", 3); // the schema default, applied by the 1.36 server

        GenericKubernetesResource shrunk = cluster("shrink", "1Gi");
        shrunk.getMetadata().setResourceVersion(created.getMetadata().getResourceVersion());
        assertThatThrownBy(() -> clusters().resource(shrunk).update())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    assertThat(e.getStatus().getDetails().getCauses()).anySatisfy(cause -> {
                        assertThat(cause.getField()).isEqualTo("spec.storage.size");
                        assertThat(cause.getMessage()).contains("storage.size cannot be decreased");
                    });
                });
        assertThat(spec(clusters().withName("shrink").get()))
                .extracting("storage")
                .isEqualTo(Map.of("size", "2Gi"));
    }

    @Test
    void watchStatusAndScaleGoThroughTheAggregator() throws InterruptedException {
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        try (Watch ignored = clusters().withName("watched").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, GenericKubernetesResource resource) {
                events.add(action + " " + spec(resource).get("replicas"));
            }

            @Override
            public void onClose(WatcherException cause) {}
        })) {
            clusters().resource(cluster("watched", "1Gi")).create();
            assertThat(events.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("ADDED 3");

            clusters().withName("watched").scale(5);
            assertThat(spec(clusters().withName("watched").get())).containsEntry("replicas", 5);
            assertThat(events.poll(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("MODIFIED 5");
        }
        GenericKubernetesResource current = clusters().withName("watched").get();
        current.setAdditionalProperty("status", Map.of("readyMembers", 2));
        GenericKubernetesResource updated = clusters().resource(current).updateStatus();
        assertThat(updated.getAdditionalProperties().get("status")).isEqualTo(Map.of("readyMembers", 2));
    }

    @Test
    void authenticationAndAuthorizationAreKubeApiserversRbac() {
        Config impersonating = controlPlane.clientConfig();
        impersonating.setImpersonateUsername("someone-without-roles");
        try (KubernetesClient stranger =
                new KubernetesClientBuilder().withConfig(impersonating).build()) {
            assertThatThrownBy(() -> stranger.genericKubernetesResources(API_VERSION, "EtcdCluster")
                            .inNamespace(NAMESPACE)
                            .list())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(403);
                        assertThat(e.getMessage())
                                .contains("someone-without-roles")
                                .contains("etcdclusters.etcd-operator.cozystack.io");
                    });
        }
    }

    @Test
    void theGarbageCollectorAndTheNamespaceControllerSeeTheAggregatedKinds() {
        GenericKubernetesResource owner =
                clusters().resource(cluster("owner", "1Gi")).create();
        client.configMaps()
                .inNamespace(NAMESPACE)
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("owned")
                        .withOwnerReferences(new OwnerReferenceBuilder()
                                .withApiVersion(API_VERSION)
                                .withKind("EtcdCluster")
                                .withName("owner")
                                .withUid(owner.getMetadata().getUid())
                                .build())
                        .endMetadata()
                        .build())
                .create();
        clusters().withName("owner").delete();
        // the 1.20 garbage collector picks up new kinds at its 30 s discovery resync
        Eventually.await(
                "the garbage collector to delete the owned ConfigMap",
                GC_DEADLINE,
                () -> client.configMaps()
                                .inNamespace(NAMESPACE)
                                .withName("owned")
                                .get()
                        == null);

        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("doomed")
                        .endMetadata()
                        .build())
                .create();
        client.genericKubernetesResources(API_VERSION, "EtcdCluster")
                .inNamespace("doomed")
                .resource(cluster("inside", "1Gi"))
                .create();
        client.namespaces().withName("doomed").delete();
        Eventually.await(
                "namespace doomed (with an EtcdCluster in it) to be deleted",
                DEADLINE,
                () -> client.namespaces().withName("doomed").get() == null);
    }

    @Test
    void kubectl136AppliesServerSideThroughTheOneEndpoint() throws IOException, InterruptedException {
        Path manifest = controlPlane.workDir().resolve("applied.yaml");
        Files.writeString(manifest, """
                apiVersion: etcd-operator.cozystack.io/v1alpha2
                kind: EtcdCluster
                metadata: {name: applied, namespace: default}
                spec: {version: 3.5.16, storage: {size: 1Gi}}
                """);
        assertThat(kubectl("apply", "--server-side", "-f", manifest.toString()))
                .contains("etcdcluster.etcd-operator.cozystack.io/applied serverside-applied");
        Files.writeString(manifest, Files.readString(manifest).replace("1Gi", "512Mi"));
        assertThat(kubectl("apply", "--server-side", "-f", manifest.toString()))
                .contains("storage.size cannot be decreased");
        assertThat(kubectl("get", "etcdclusters", "applied", "-o", "jsonpath={.spec.storage.size}"))
                .isEqualTo("1Gi");
    }

    /**
     * `kubectl explain` through kube-apiserver 1.20: the aggregator merges the 1.36 server's OpenAPI v2 (which
     * hack/apiext-binaries.sh turns on) and kubectl falls back to v2, which 1.20 serves.
     */
    @Test
    void kubectlExplainsTheAggregatedKinds() {
        String explained = Eventually.await("the CRDs' OpenAPI aggregated", DEADLINE, () -> {
            try {
                String output = kubectl("explain", "etcdcluster.spec.storage");
                return output.contains("DESCRIPTION:") ? output : null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
        assertThat(explained).contains("KIND:     EtcdCluster", "Per-member data volume", "storageClassName");
    }

    private static String kubectl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                apiext.kubectl().toString(),
                "--kubeconfig=" + controlPlane.kubeconfig(),
                "--cache-dir=" + controlPlane.workDir().resolve("kubectl-cache")));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        return output.strip();
    }

    private static MixedOperation<
                    GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            clusters() {
        return client.genericKubernetesResources(API_VERSION, "EtcdCluster");
    }

    private static GenericKubernetesResource cluster(String name, String size) {
        GenericKubernetesResource cluster = new GenericKubernetesResource();
        cluster.setApiVersion(API_VERSION);
        cluster.setKind("EtcdCluster");
        cluster.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(NAMESPACE).build());
        cluster.setAdditionalProperty("spec", Map.of("version", "3.5.16", "storage", Map.of("size", size)));
        return cluster;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource resource) {
        return (Map<String, Object>) resource.getAdditionalProperties().get("spec");
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder())
                        .forEach(file -> file.toFile().delete());
            }
        }
    }
}
