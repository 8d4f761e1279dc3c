package io.etcdoperator.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdoperator.localkube.LocalKubernetes;
import io.etcdoperator.localkube.LocalKubernetesOptions;
import io.etcdoperator.localkube.node.ImageCatalogue;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The release as a user installs it: hack/image.sh builds the operator image, pushed to a real registry (Debian's
 * docker-registry) that the simulated nodes pull ghcr.io's images from, `kubectl apply -f dist/install.yaml`
 * installs it into etcd-operator-system, and the nodes run it, the etcd members and the snapshot agent in
 * runc containers from their images. A 3-member cluster gets READY=3; a snapshot to a PVC is restored into a new
 * cluster with the image's own restore tools.
 */
class InstallIT {

    static final Path ROOT = ChartTest.ROOT;
    static final String IMAGE = "ghcr.io/etcd-operator-java/etcd-operator:0.1.0";
    static final String GROUP_VERSION = "etcd-operator.cozystack.io/v1alpha2";

    static final ObjectMapper JSON = new ObjectMapper();

    static RegistryProcess registry;
    static String pushedDigest;
    static LocalKubernetes cluster;
    static KubernetesClient client;

    @BeforeAll
    static void install() throws Exception {
        Path work = MODULE_TARGET.resolve("install-it");
        run(List.of("rm", "-rf", work.toString()));
        Instant started = Instant.now();
        List<String> built = run(List.of(ROOT.resolve("hack/image.sh").toString()));
        Path layout = Path.of(built.getLast());
        System.out.printf(
                "image built in %d s%n",
                Duration.between(started, Instant.now()).toSeconds());
        // the nodes pull the operator image as from ghcr.io, through a mirror: a real registry holding the built image
        registry = RegistryProcess.start(work.resolve("registry"));
        run(List.of(
                "skopeo",
                "copy",
                "--quiet",
                "--dest-tls-verify=false",
                "oci:" + layout + ":dev",
                "docker://" + registry.address() + IMAGE.substring(IMAGE.indexOf('/'))));
        pushedDigest = JSON.readTree(layout.resolve("index.json").toFile())
                .get("manifests")
                .get(0)
                .get("digest")
                .asText();
        ImageCatalogue images = ImageCatalogue.withContainerEtcdImages(work.resolve("images"))
                .registry("ghcr.io", registry.address(), work.resolve("images/pulled"))
                .build();
        cluster = LocalKubernetes.start(
                work.resolve("cluster"), LocalKubernetesOptions.defaults().withImages(images));
        client = cluster.client();
        List<HasMetadata> manifest = client.load(Files.newInputStream(ROOT.resolve("dist/install.yaml")))
                .items();
        for (HasMetadata object : manifest) {
            if (object.getKind().equals("Namespace") || object.getKind().equals("CustomResourceDefinition")) {
                client.resource(object).create();
            }
        }
        await(
                "CRDs established",
                Duration.ofSeconds(60),
                () -> client.apiextensions().v1().customResourceDefinitions().list().getItems().stream()
                                .filter(crd -> crd.getSpec().getGroup().equals("etcd-operator.cozystack.io"))
                                .allMatch(crd -> crd.getStatus() != null
                                        && crd.getStatus().getConditions() != null
                                        && crd.getStatus().getConditions().stream()
                                                .anyMatch(c -> c.getType().equals("Established")
                                                        && c.getStatus().equals("True")))
                        ? true
                        : null);
        for (HasMetadata object : manifest) {
            if (!object.getKind().equals("Namespace") && !object.getKind().equals("CustomResourceDefinition")) {
                client.resource(object).create();
            }
        }
    }

    static final Path MODULE_TARGET = ChartTest.MODULE.toAbsolutePath().resolve("target");

    @AfterAll
    static void stop() throws InterruptedException {
        if (cluster != null) {
            cluster.close();
        }
        if (registry != null) {
            registry.close();
        }
    }

    @Test
    void operatorFromItsImageRunsAClusterAndRestoresASnapshotFromAPvc() throws Exception {
        Deployment operator = await("Deployment etcd-operator available", Duration.ofSeconds(120), () -> {
            Deployment current = client.apps()
                    .deployments()
                    .inNamespace("etcd-operator-system")
                    .withName("etcd-operator")
                    .get();
            return current.getStatus() != null
                            && Integer.valueOf(1).equals(current.getStatus().getAvailableReplicas())
                    ? current
                    : null;
        });
        assertThat(operator.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getImage())
                .isEqualTo(IMAGE);
        assertThat(client.pods().inNamespace("etcd-operator-system").list().getItems())
                .flatExtracting(pod -> pod.getStatus().getContainerStatuses())
                .extracting(ContainerStatus::getImageID)
                .as("the node pulled the image that was pushed, by its digest")
                .contains("ghcr.io/etcd-operator-java/etcd-operator@" + pushedDigest);
        assertThat(client.leases().inNamespace("etcd-operator-system").list().getItems())
                .as("the leader Lease")
                .isNotEmpty();

        apply(Files.readString(ROOT.resolve("config/samples/etcdcluster.yaml")));
        awaitReady("my-etcd");
        etcdctl("my-etcd", "put", "hello", "world");

        apply("""
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: snapshots, namespace: default}
        spec:
          accessModes: [ReadWriteOnce]
          resources: {requests: {storage: 1Gi}}
        ---
        apiVersion: etcd-operator.cozystack.io/v1alpha2
        kind: EtcdSnapshot
        metadata: {name: before-upgrade, namespace: default}
        spec:
          clusterRef: {name: my-etcd}
          destination:
            pvc: {claimName: snapshots}
        """);
        GenericKubernetesResource snapshot = await("snapshot Complete", Duration.ofSeconds(120), () -> {
            GenericKubernetesResource current = client.genericKubernetesResources(GROUP_VERSION, "EtcdSnapshot")
                    .inNamespace("default")
                    .withName("before-upgrade")
                    .get();
            Object phase = current.getAdditionalProperties().get("status") instanceof Map<?, ?> status
                    ? status.get("phase")
                    : null;
            return "Complete".equals(phase) || "Failed".equals(phase) ? current : null;
        });
        assertThat(((Map<?, ?>) snapshot.getAdditionalProperties().get("status")).get("phase"))
                .isEqualTo("Complete");

        apply("""
        apiVersion: etcd-operator.cozystack.io/v1alpha2
        kind: EtcdCluster
        metadata: {name: my-etcd-restored, namespace: default}
        spec:
          replicas: 3
          version: 3.5.16
          storage: {size: 1Gi}
          bootstrap:
            restore:
              source:
                pvc: {claimName: snapshots, subPath: before-upgrade.db}
        """);
        awaitReady("my-etcd-restored");
        assertThat(etcdctl("my-etcd-restored", "get", "hello", "--print-value-only"))
                .containsExactly("world");
    }

    private static void apply(String yaml) {
        for (HasMetadata object : client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
                .items()) {
            client.resource(object).create();
        }
    }

    private static void awaitReady(String name) {
        await(name + " READY=3", Duration.ofSeconds(240), () -> {
            Resource<GenericKubernetesResource> resource = client.genericKubernetesResources(
                            GROUP_VERSION, "EtcdCluster")
                    .inNamespace("default")
                    .withName(name);
            Object ready = resource.get().getAdditionalProperties().get("status") instanceof Map<?, ?> status
                    ? status.get("readyMembers")
                    : null;
            return Integer.valueOf(3).equals(ready) ? true : null;
        });
    }

    private static List<String> etcdctl(String cluster, String... args) throws IOException, InterruptedException {
        String ip = client
                .pods()
                .inNamespace("default")
                .withLabel("etcd-operator.cozystack.io/cluster", cluster)
                .list()
                .getItems()
                .stream()
                .filter(pod -> pod.getStatus().getPodIP() != null)
                .findFirst()
                .orElseThrow()
                .getStatus()
                .getPodIP();
        String bin = Optional.ofNullable(System.getenv("ETCD35_BIN"))
                .filter(s -> !s.isBlank())
                .orElse(System.getProperty("user.home") + "/.cache/etcd-operator/etcd-3.5.16");
        List<String> command = new ArrayList<>(List.of(bin + "/etcdctl", "--endpoints=http://" + ip + ":2379"));
        command.addAll(List.of(args));
        return run(command);
    }

    /** Runs a command to its end; its stdout lines, or an AssertionError with its output when it fails. */
    private static List<String> run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new AssertionError(command + " failed: " + out);
        }
        return out.lines().toList();
    }

    private static <T> T await(String what, Duration timeout, Supplier<T> probe) {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            T value = probe.get();
            if (value != null) {
                return value;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
    }
}
