package io.etcdoperator.localkube;

import io.etcdoperator.localkube.network.ClusterDns;
import io.etcdoperator.localkube.network.ClusterHosts;
import io.etcdoperator.localkube.network.PodNetwork;
import io.etcdoperator.localkube.node.KubeletTls;
import io.etcdoperator.localkube.node.MountPoints;
import io.etcdoperator.localkube.node.NodeFacilities;
import io.etcdoperator.localkube.node.NodeOptions;
import io.etcdoperator.localkube.node.SimulatedNode;
import io.etcdoperator.localkube.scheduler.PodScheduler;
import io.etcdoperator.localkube.simetcd.EtcdRules;
import io.etcdoperator.localkube.simetcd.SimulatedEtcd;
import io.etcdoperator.localkube.storage.LocalVolumeProvisioner;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;

/**
 * A local Kubernetes cluster: the {@link ControlPlane} plus N simulated nodes that run Pods as local processes,
 * a scheduler, a directory-backed volume provisioner (default StorageClass), Pod networking and hosts-file name
 * resolution. {@link #start} returns once every node is Ready; {@link #close()} stops and removes everything it
 * created outside the work dir (network namespaces, links, mounts, /etc/netns entries).
 */
public final class LocalKubernetes implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LocalKubernetes.class.getName());
    private static final Duration NODES_READY_TIMEOUT = Duration.ofSeconds(90);
    private static final int SIMULATED_MAX_PODS = 1000;

    private final Path workDir;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final List<SimulatedNode> nodes = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::closeResources, "local-kubernetes-shutdown");
    private ControlPlane controlPlane;
    private KubernetesClient client;
    private ClusterHosts hosts;
    private PodNetwork network;
    private Duration timeToReady;

    private LocalKubernetes(Path workDir) {
        this.workDir = workDir.toAbsolutePath();
    }

    /** Starts in {@code workDir}, which must be absent or empty; progress lines go to {@code progress}. */
    public static LocalKubernetes start(Path workDir, LocalKubernetesOptions options, Consumer<String> progress)
            throws InterruptedException {
        LocalKubernetes cluster = new LocalKubernetes(workDir);
        Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
        try {
            cluster.boot(options, progress);
            return cluster;
        } catch (RuntimeException | InterruptedException e) {
            cluster.close();
            throw e;
        }
    }

    public static LocalKubernetes start(Path workDir, LocalKubernetesOptions options) throws InterruptedException {
        return start(workDir, options, line -> LOG.log(Level.INFO, line));
    }

    private void boot(LocalKubernetesOptions options, Consumer<String> progress) throws InterruptedException {
        Instant started = Instant.now();
        progress.accept("starting control plane in " + workDir);
        controlPlane = ControlPlane.start(workDir.resolve("control-plane"));
        resources.add(controlPlane);
        client = controlPlane.newClient();
        resources.add(client);
        progress.accept("control plane ready at " + controlPlane.apiServer() + " after "
                + controlPlane.timeToReady().toMillis() + " ms");

        network = PodNetwork.create(workDir, options.podNamespaces());
        resources.add(network);
        progress.accept("pod network: " + network.describe());
        hosts = new ClusterHosts(client, workDir.resolve("hosts"), options.clusterDomain());
        resources.add(hosts);
        ClusterHosts names = hosts;
        network.dnsServer().ifPresent(address -> resources.add(ClusterDns.serve(address, names::address)));
        resources.add(new LocalVolumeProvisioner(client, workDir.resolve("volumes")));
        MountPoints mountPoints = new MountPoints();
        resources.add(mountPoints);
        SSLContext kubeletTls = KubeletTls.create(workDir.resolve("kubelet"));
        Optional<SimulatedEtcd> simulatedEtcd = Optional.empty();
        if (options.simulatedEtcd()) {
            SimulatedEtcd etcd = new SimulatedEtcd(Clock.systemUTC(), EtcdRules.etcdDefaults());
            resources.add(etcd);
            simulatedEtcd = Optional.of(etcd);
            progress.accept("etcd member Pods are answered by a simulated etcd");
        }
        NodeFacilities facilities = new NodeFacilities(
                client,
                network,
                hosts,
                options.images(),
                mountPoints,
                options.backOff(),
                workDir.resolve("nodes"),
                simulatedEtcd);
        for (int i = 1; i <= options.nodes(); i++) {
            NodeOptions nodeOptions = NodeOptions.named("node-" + i);
            if (options.simulatedEtcd()) {
                nodeOptions = nodeOptions.withMaxPods(SIMULATED_MAX_PODS);
            }
            if (!options.zones().isEmpty()) {
                nodeOptions = nodeOptions.inZone(
                        options.zones().get((i - 1) % options.zones().size()));
            }
            SimulatedNode node = new SimulatedNode(facilities, nodeOptions, kubeletTls);
            resources.add(node);
            nodes.add(node.register());
        }
        resources.add(new PodScheduler(client));
        awaitNodesSchedulable();
        timeToReady = Duration.between(started, Instant.now());
        progress.accept(options.nodes() + " node(s) ready after " + timeToReady.toMillis() + " ms");
    }

    /** New nodes carry a not-ready taint until the node lifecycle controller sees them Ready. */
    private void awaitNodesSchedulable() throws InterruptedException {
        Instant deadline = Instant.now().plus(NODES_READY_TIMEOUT);
        while (!client.nodes().list().getItems().stream().allMatch(LocalKubernetes::schedulable)) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("nodes not schedulable after " + NODES_READY_TIMEOUT);
            }
            Thread.sleep(200);
        }
    }

    private static boolean schedulable(Node node) {
        boolean ready = node.getStatus() != null
                && node.getStatus().getConditions() != null
                && node.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        boolean tainted = node.getSpec().getTaints() != null
                && node.getSpec().getTaints().stream()
                        .anyMatch(taint -> taint.getKey().startsWith("node.kubernetes.io/not-ready"));
        return ready && !tainted;
    }

    /** An admin client owned by this cluster (do not close it). */
    public KubernetesClient client() {
        return client;
    }

    public Path kubeconfig() {
        return controlPlane.kubeconfig();
    }

    public ControlPlane controlPlane() {
        return controlPlane;
    }

    /** The host-wide hosts file: start a JVM with {@code -Djdk.net.hosts.file=<this>} to resolve Pod names. */
    public Path hostsFile() {
        return hosts.hostWideFile();
    }

    /** Node {@code i}, counting from 0; its name is {@code node-<i+1>}. */
    public SimulatedNode node(int index) {
        return nodes.get(index);
    }

    public List<SimulatedNode> nodes() {
        return List.copyOf(nodes);
    }

    public Faults faults() {
        return new Faults(nodes);
    }

    public Path workDir() {
        return workDir;
    }

    /** The host's address as Pods see it: a server of the test process bound to all interfaces is reachable there. */
    public String hostAddressForPods() {
        return network.hostAddress();
    }

    public String podNetwork() {
        return network.describe();
    }

    /** From {@link #start} being called to every node being schedulable. */
    public Duration timeToReady() {
        return timeToReady;
    }

    @Override
    public void close() {
        closeResources();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or has run
        }
    }

    private synchronized void closeResources() {
        for (AutoCloseable resource : resources.reversed()) {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.log(Level.WARNING, "cannot close " + resource, e);
            }
        }
        resources.clear();
    }

    /** Empties {@code dir} if an earlier run of ours left it (it holds a {@code control-plane} dir), else refuses. */
    static void reuse(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            List<Path> found = entries.toList();
            if (found.isEmpty()) {
                return;
            }
            if (!Files.isDirectory(dir.resolve("control-plane"))) {
                throw new IllegalArgumentException("work directory " + dir + " is not empty and not ours");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder())
                    .filter(f -> !f.equals(dir))
                    .toList()) {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot empty " + dir, e);
        }
    }
}
