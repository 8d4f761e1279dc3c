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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A real Kubernetes 1.36 {@code apiextensions-apiserver} on loopback, with its own etcd: it serves
 * CustomResourceDefinitions and their custom resources with the server's own structural-schema checks, CEL cost
 * budget, {@code x-kubernetes-validations} (including transition rules), defaulting and pruning. It serves nothing
 * else: no core API, so the admission plugins that need core informers are off, and {@code /api}, {@code /apis}
 * discovery and OpenAPI for custom resources are absent (per-group discovery works).
 *
 * <p>Standalone: clients authenticate with a client certificate in {@code system:masters} (see {@link #kubeconfig()});
 * the server's delegated authentication and authorization point at itself and are never consulted for that group.
 */
public final class ApiExtensionsServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ApiExtensionsServer.class.getName());
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);
    /** Plugins that watch core or admissionregistration objects, which this server does not serve. */
    private static final String DISABLED_ADMISSION = "NamespaceLifecycle,MutatingAdmissionPolicy,"
            + "MutatingAdmissionWebhook,ValidatingAdmissionPolicy,ValidatingAdmissionWebhook";

    private final Path workDir;
    private final ApiExtensionsBinaries binaries;
    private final List<LocalProcess> processes = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::stopProcesses, "apiext-shutdown");
    private URI url;
    private Path kubeconfig;
    private Duration timeToReady;

    private ApiExtensionsServer(Path workDir, ApiExtensionsBinaries binaries) {
        this.workDir = workDir.toAbsolutePath();
        this.binaries = binaries;
    }

    /** Starts with its state, certificates and logs in {@code workDir}, which must be absent or empty. */
    public static ApiExtensionsServer start(Path workDir) throws InterruptedException {
        ApiExtensionsBinaries binaries = ApiExtensionsBinaries.locate();
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
        ApiExtensionsServer server = new ApiExtensionsServer(workDir, binaries);
        Runtime.getRuntime().addShutdownHook(server.shutdownHook);
        try {
            server.boot();
            return server;
        } catch (RuntimeException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            server.stopProcesses();
            server.removeShutdownHook();
            throw new IllegalStateException("apiextensions-apiserver did not start: " + e.getMessage() + "; logs: "
                    + server.logs(), e);
        }
    }

    private void boot() throws InterruptedException {
        Instant started = Instant.now();
        Instant deadline = started.plus(STARTUP_TIMEOUT);
        int[] ports = LoopbackPorts.reserve(3);
        URI etcd = URI.create("http://127.0.0.1:" + ports[0]);
        LocalProcess store = run("etcd", ControlPlaneFlags.etcd(binaries.etcd(), workDir, etcd, ports[1]));
        ReadinessProbe.http(etcd.resolve("/health")).await(store, deadline);

        Path pki = workDir.resolve("pki");
        LocalCa ca = LocalCa.create("apiext", pki);
        LocalCa.KeyFiles serving = ca.issueLoopbackServer("apiextensions-apiserver", pki, "serving");
        LocalCa.KeyFiles admin = ca.issueClient("admin", "system:masters", pki, "admin");
        url = URI.create("https://127.0.0.1:" + ports[2]);
        kubeconfig = writeKubeconfig(workDir.resolve("kubeconfig"), url, ca.file(), admin);

        LocalProcess server = run("apiextensions-apiserver", List.of(binaries.apiServer().toString(),
                "--etcd-servers=" + etcd,
                "--bind-address=127.0.0.1",
                "--secure-port=" + ports[2],
                "--tls-cert-file=" + serving.certificate(),
                "--tls-private-key-file=" + serving.key(),
                "--client-ca-file=" + ca.file(),
                "--authentication-skip-lookup",
                // mandatory outside a Pod; clients in system:masters never reach the delegated checks
                "--kubeconfig=" + kubeconfig,
                "--authentication-kubeconfig=" + kubeconfig,
                "--authorization-kubeconfig=" + kubeconfig,
                "--disable-admission-plugins=" + DISABLED_ADMISSION,
                "--enable-priority-and-fairness=false",
                "--profiling=false"));
        // /readyz stays red standalone (its Service informer has no core API to sync from); /livez is the signal
        ReadinessProbe.https(url.resolve("/livez"), ca.file(), Optional.empty()).await(server, deadline);
        timeToReady = Duration.between(started, Instant.now());
        LOG.log(Level.INFO, "apiextensions-apiserver {0} ready at {1} after {2} ms (work dir {3})",
                ApiExtensionsBinaries.VERSION, url, timeToReady.toMillis(), workDir);
    }

    private static Path writeKubeconfig(Path file, URI server, Path ca, LocalCa.KeyFiles user) {
        try {
            ServiceAccountKeys.writeOwnerOnly(file, """
                    apiVersion: v1
                    kind: Config
                    clusters:
                    - name: apiext
                      cluster:
                        server: %s
                        certificate-authority: %s
                    users:
                    - name: admin
                      user:
                        client-certificate: %s
                        client-key: %s
                    contexts:
                    - name: apiext
                      context:
                        cluster: apiext
                        user: admin
                        namespace: default
                    current-context: apiext
                    """.formatted(server, ca, user.certificate(), user.key()));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write kubeconfig " + file, e);
        }
    }

    private LocalProcess run(String name, List<String> command) {
        LocalProcess process = LocalProcess.start(name, command, workDir, workDir.resolve("logs/" + name + ".log"));
        processes.add(process);
        return process;
    }

    public Path workDir() {
        return workDir;
    }

    public URI url() {
        return url;
    }

    /** An admin kubeconfig (client certificate in {@code system:masters}), readable by its owner only. */
    public Path kubeconfig() {
        return kubeconfig;
    }

    /** kubectl 1.36, for tests that want the CLI's view. */
    public Path kubectl() {
        return binaries.kubectl();
    }

    /** A fresh fabric8 configuration read from {@link #kubeconfig()}. */
    public Config clientConfig() {
        return Config.fromKubeconfig(kubeconfig.toFile());
    }

    /** A new admin client; the caller closes it. There is no root discovery: address resources explicitly. */
    public KubernetesClient newClient() {
        return new KubernetesClientBuilder().withConfig(clientConfig()).build();
    }

    public Duration timeToReady() {
        return timeToReady;
    }

    public List<Path> logs() {
        return processes.stream().map(LocalProcess::log).toList();
    }

    @Override
    public void close() {
        stopProcesses();
        removeShutdownHook();
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
}
