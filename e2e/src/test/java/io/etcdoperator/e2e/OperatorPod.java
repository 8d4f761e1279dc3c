package io.etcdoperator.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The operator as users run it: Deployment {@code etcd-operator} in {@value #NAMESPACE}, installed by the chart and
 * run by a simulated node from its image in a runc container. Its logs are the node's container log files, which
 * stay in the e2e work dir after the Pod is gone.
 */
public final class OperatorPod implements Operator {

    public static final String NAMESPACE = "etcd-operator-system";
    public static final String DEPLOYMENT = "etcd-operator";

    private final KubernetesClient client;
    private final Path podLogs;

    OperatorPod(KubernetesClient client, Path podLogs) {
        this.client = client;
        this.podLogs = podLogs;
    }

    /** The Deployment's Pods that are not being deleted. */
    public List<Pod> pods() {
        return client
                .pods()
                .inNamespace(NAMESPACE)
                .withLabel("app.kubernetes.io/name", "etcd-operator")
                .list()
                .getItems()
                .stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .toList();
    }

    /** Scales the Deployment and waits until that many Pods run and are Ready (none left for 0). */
    public void scale(int replicas, Duration timeout) {
        client.apps().deployments().inNamespace(NAMESPACE).withName(DEPLOYMENT).scale(replicas);
        Await.until("operator Deployment at " + replicas + " ready replicas", timeout, () -> {
            if (replicas == 0) {
                return client.pods()
                        .inNamespace(NAMESPACE)
                        .withLabel("app.kubernetes.io/name", "etcd-operator")
                        .list()
                        .getItems()
                        .isEmpty();
            }
            var status = client.apps()
                    .deployments()
                    .inNamespace(NAMESPACE)
                    .withName(DEPLOYMENT)
                    .get()
                    .getStatus();
            return status != null
                    && Integer.valueOf(replicas).equals(status.getReadyReplicas())
                    && pods().size() == replicas;
        });
    }

    /**
     * Scales the Deployment and waits until that many Pods run, Ready or not: with leader election a replica that does
     * not hold the Lease has not started its controllers.
     */
    public void scaleRunning(int replicas, Duration timeout) {
        client.apps().deployments().inNamespace(NAMESPACE).withName(DEPLOYMENT).scale(replicas);
        Await.until(
                "operator Deployment at " + replicas + " running Pods",
                timeout,
                () -> pods().size() == replicas
                        && pods().stream()
                                .allMatch(p -> "Running".equals(p.getStatus().getPhase())));
    }

    @Override
    public String logText() {
        try (Stream<Path> dirs = Files.exists(podLogs) ? Files.list(podLogs) : Stream.empty()) {
            // <ns>_<pod>_<uid>/logs/operator/<run>.log, oldest Pod first
            return dirs.filter(d -> d.getFileName().toString().startsWith(NAMESPACE + "_"))
                    .map(d -> d.resolve("logs/operator"))
                    .filter(Files::isDirectory)
                    .sorted(Comparator.comparing(OperatorPod::modified))
                    .flatMap(OperatorPod::runLogs)
                    .map(OperatorPod::read)
                    .collect(Collectors.joining());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public HttpResponse<String> get(String path) {
        Pod pod = pods().stream()
                .filter(p -> p.getStatus().getPodIP() != null)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no running operator Pod"));
        int port = path.equals("/metrics") ? 8080 : 8081; // the chart's metrics.port and health.port
        return OperatorHttp.get(URI.create("http://" + pod.getStatus().getPodIP() + ":" + port + path));
    }

    /**
     * The JVM of the running Pod's container: the java process in the memory cgroup the node made for it
     * ({@code /etcdop-localkube/<first 8 of the Pod uid>-operator-<restart>}).
     */
    @Override
    public long pid() {
        Pod pod = pods().stream().findFirst().orElseThrow(() -> new IllegalStateException("no operator Pod"));
        String cgroup =
                ":memory:/etcdop-localkube/" + pod.getMetadata().getUid().substring(0, 8) + "-operator-";
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            return procs.filter(d -> d.getFileName().toString().chars().allMatch(Character::isDigit))
                    .filter(d -> "java".equals(readQuietly(d.resolve("comm")).strip())
                            && readQuietly(d.resolve("cgroup")).contains(cgroup))
                    .mapToLong(d -> Long.parseLong(d.getFileName().toString()))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no java process in cgroup " + cgroup));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return ""; // the process ended while /proc was listed
        }
    }

    private static Stream<Path> runLogs(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files
                    .filter(f -> f.toString().endsWith(".log"))
                    .sorted(Comparator.comparing(OperatorPod::modified))
                    .toList()
                    .stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static FileTime modified(Path path) {
        try {
            return Files.getLastModifiedTime(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
