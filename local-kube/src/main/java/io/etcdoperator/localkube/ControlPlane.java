package io.etcdoperator.localkube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A real Kubernetes 1.20 control plane on loopback: an etcd store, kube-apiserver and kube-controller-manager, each
 * on free ports with its state and log file under {@link #workDir()}. {@link #start} returns once all three are
 * healthy; {@link #close()} stops them by PID. The admin identity is a static token in {@code system:masters}.
 */
public final class ControlPlane implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ControlPlane.class.getName());
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);
    private static final String LOOPBACK = "127.0.0.1";

    private final Path workDir;
    private final boolean ownsWorkDir;
    private final String adminToken = newToken();
    private final List<LocalProcess> processes = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::stopProcesses, "local-kube-shutdown");
    private URI etcdEndpoint;
    private Function<URI, List<String>> apiServerCommand;
    private LocalProcess apiServerProcess;
    private int apiServerRestarts;
    private Kubeconfig kubeconfig;
    private Duration timeToReady;

    private ControlPlane(Path workDir, boolean ownsWorkDir) {
        this.workDir = workDir.toAbsolutePath();
        this.ownsWorkDir = ownsWorkDir;
    }

    /** Starts in a fresh temporary directory, which {@link #close()} deletes. */
    public static ControlPlane start() throws InterruptedException {
        try {
            return launch(Files.createTempDirectory("local-kube-"), true, Optional.empty());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a work directory", e);
        }
    }

    /**
     * Starts with its state and logs in {@code workDir}, which must be absent or empty (a stale etcd data dir would
     * bring back old objects) and is kept after {@link #close()}.
     */
    public static ControlPlane start(Path workDir) throws InterruptedException {
        return launch(requireEmpty(workDir), false, Optional.empty());
    }

    /**
     * Starts kube-apiserver and kube-controller-manager only, storing in the etcd at {@code etcd}, which the caller
     * runs and stops. {@code workDir} as in {@link #start(Path)}.
     */
    public static ControlPlane startOn(URI etcd, Path workDir) throws InterruptedException {
        return launch(requireEmpty(workDir), false, Optional.of(etcd));
    }

    private static Path requireEmpty(Path workDir) {
        try {
            Files.createDirectories(workDir);
            try (Stream<Path> entries = Files.list(workDir)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException("work directory " + workDir + " is not empty");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create work directory " + workDir, e);
        }
        return workDir;
    }

    private static ControlPlane launch(Path workDir, boolean ownsWorkDir, Optional<URI> etcd)
            throws InterruptedException {
        KubeBinaries binaries = KubeBinaries.locate();
        ControlPlane plane = new ControlPlane(workDir, ownsWorkDir);
        Runtime.getRuntime().addShutdownHook(plane.shutdownHook);
        try {
            plane.boot(binaries, etcd);
            return plane;
        } catch (RuntimeException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            // keep the work dir: its logs explain the failure
            plane.stopProcesses();
            plane.removeShutdownHook();
            throw new IllegalStateException(
                    "local control plane did not start: " + e.getMessage() + "; logs: " + plane.logs(), e);
        }
    }

    private void boot(KubeBinaries binaries, Optional<URI> externalEtcd) throws InterruptedException {
        Instant started = Instant.now();
        Instant deadline = started.plus(STARTUP_TIMEOUT);
        int[] ports = LoopbackPorts.reserve(4);
        etcdEndpoint = externalEtcd.orElse(URI.create("http://" + LOOPBACK + ":" + ports[0]));
        if (externalEtcd.isEmpty()) {
            LocalProcess etcd = run("etcd", ControlPlaneFlags.etcd(binaries.etcd(), workDir, etcdEndpoint, ports[1]));
            ReadinessProbe.http(etcdEndpoint.resolve("/health")).await(etcd, deadline);
        }

        URI apiServer = URI.create("https://" + LOOPBACK + ":" + ports[2]);
        ServiceAccountKeys keys = ServiceAccountKeys.generate(workDir.resolve("pki"));
        Path tokens = writeTokenFile(workDir.resolve("pki/tokens.csv"));
        ControlPlaneFlags.FrontProxy frontProxy = ControlPlaneFlags.FrontProxy.generate(workDir.resolve("pki"));
        Path auditPolicy = writeAuditPolicy(workDir.resolve("audit-policy.yaml"));
        apiServerCommand = etcd -> {
            List<String> flags = new ArrayList<>(ControlPlaneFlags.apiServer(
                    binaries.apiServer(), apiServerCertDir(), etcd, ports[2], tokens, keys, frontProxy));
            flags.addAll(ControlPlaneFlags.audit(auditPolicy, auditLog()));
            return flags;
        };
        apiServerProcess = run("kube-apiserver", apiServerCommand.apply(etcdEndpoint));
        ReadinessProbe.https(apiServer.resolve("/readyz"), apiServerCertificate(), Optional.of(adminToken))
                .await(apiServerProcess, deadline);
        kubeconfig = Kubeconfig.write(workDir.resolve("kubeconfig"), apiServer, apiServerCertificate(), adminToken);

        Path controllerManagerCertDir = workDir.resolve("kube-controller-manager");
        LocalProcess controllerManager = run(
                "kube-controller-manager",
                ControlPlaneFlags.controllerManager(
                        binaries.controllerManager(),
                        controllerManagerCertDir,
                        kubeconfig.file(),
                        ports[3],
                        keys,
                        apiServerCertificate()));
        ReadinessProbe.https(
                        URI.create("https://" + LOOPBACK + ":" + ports[3] + "/healthz"),
                        controllerManagerCertDir.resolve("kube-controller-manager.crt"),
                        Optional.empty())
                .await(controllerManager, deadline);
        timeToReady = Duration.between(started, Instant.now());
        LOG.log(
                Level.INFO,
                "local control plane ready at {0} after {1} ms (work dir {2})",
                apiServer,
                timeToReady.toMillis(),
                workDir);
    }

    private LocalProcess run(String name, List<String> command) {
        LocalProcess process = LocalProcess.start(name, command, workDir, workDir.resolve("logs/" + name + ".log"));
        processes.add(process);
        return process;
    }

    /**
     * Stops kube-apiserver and starts it again on the same port, serving certificate and keys, storing in the etcd at
     * {@code etcd} (say, one restored from a snapshot): clients keep their URL, credentials and open watches, which
     * reconnect. Returns once /readyz answers; each restart logs to {@code logs/kube-apiserver.<n>.log}.
     */
    public synchronized void restartApiServer(URI etcd) throws InterruptedException {
        int index = processes.indexOf(apiServerProcess);
        apiServerProcess.close();
        apiServerRestarts++;
        apiServerProcess = LocalProcess.start(
                "kube-apiserver",
                apiServerCommand.apply(etcd),
                workDir,
                workDir.resolve("logs/kube-apiserver." + apiServerRestarts + ".log"));
        processes.set(index, apiServerProcess);
        etcdEndpoint = etcd;
        ReadinessProbe.https(apiServer().resolve("/readyz"), apiServerCertificate(), Optional.of(adminToken))
                .await(apiServerProcess, Instant.now().plus(STARTUP_TIMEOUT));
    }

    /** Every request's metadata after its response (a watch's also when it starts): who sent what, a JSON line each. */
    private static Path writeAuditPolicy(Path file) {
        try {
            return Files.writeString(file, """
                    apiVersion: audit.k8s.io/v1
                    kind: Policy
                    omitStages: [RequestReceived]
                    rules:
                    - level: Metadata
                    """);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** kube-apiserver's audit log: one JSON event per request (user, verb, resource), for counting who asked what. */
    public Path auditLog() {
        return workDir.resolve("logs/kube-apiserver-audit.log");
    }

    private Path writeTokenFile(Path file) {
        try {
            ServiceAccountKeys.writeOwnerOnly(file, adminToken + ",admin,admin,system:masters\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private Path apiServerCertDir() {
        return workDir.resolve("kube-apiserver");
    }

    /** The self-signed serving certificate (and its CA) that kube-apiserver writes into its cert dir. */
    Path apiServerCertificate() {
        return apiServerCertDir().resolve("apiserver.crt");
    }

    public Path workDir() {
        return workDir;
    }

    /** An admin kubeconfig file, readable by its owner only. */
    public Path kubeconfig() {
        return kubeconfig.file();
    }

    public URI apiServer() {
        return kubeconfig.server();
    }

    /** The client URL of the etcd kube-apiserver stores the cluster's objects in (not one the operator manages). */
    public URI etcdEndpoint() {
        return etcdEndpoint;
    }

    /** A fresh fabric8 configuration read from {@link #kubeconfig()}; callers may tune it before building a client. */
    public Config clientConfig() {
        return Config.fromKubeconfig(kubeconfig.file().toFile());
    }

    /** A new admin client; the caller closes it. */
    public KubernetesClient newClient() {
        return new KubernetesClientBuilder().withConfig(clientConfig()).build();
    }

    /** From {@link #start} being called to all three processes answering their health endpoints. */
    public Duration timeToReady() {
        return timeToReady;
    }

    /** The processes in start order: etcd (not after {@link #startOn}), kube-apiserver, kube-controller-manager. */
    public List<ProcessHandle> processes() {
        return processes.stream().map(LocalProcess::handle).toList();
    }

    public List<Path> logs() {
        return processes.stream().map(LocalProcess::log).toList();
    }

    /** Stops the processes in reverse start order, and deletes the work dir if {@link #start()} created it. */
    @Override
    public void close() {
        stopProcesses();
        removeShutdownHook();
        if (ownsWorkDir) {
            deleteRecursively(workDir);
        }
    }

    private synchronized void stopProcesses() {
        processes.reversed().forEach(LocalProcess::close);
    }

    private void removeShutdownHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or has run
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(file -> file.toFile().delete());
        } catch (IOException e) {
            LOG.log(Level.WARNING, "could not delete " + dir, e);
        }
    }

    private static String newToken() {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }
}
