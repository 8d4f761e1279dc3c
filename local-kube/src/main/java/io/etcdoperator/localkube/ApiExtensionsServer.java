package io.etcdoperator.localkube;

import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Kubernetes 1.36 {@code apiextensions-apiserver} on loopback, with its own etcd: it serves
 * CustomResourceDefinitions and their custom resources with the server's own structural-schema checks, CEL cost
 * budget, {@code x-kubernetes-validations} (including transition rules), defaulting and pruning. It serves nothing
 * else: no core API, so the admission plugins that need core informers are off, and {@code /api}, {@code /apis}
 * discovery and OpenAPI for custom resources are absent (per-group discovery works).
 *
 * <p>Standalone ({@link #start}): clients authenticate with a client certificate in {@code system:masters} (see
 * {@link #kubeconfig()}); the server's delegated authentication and authorization point at itself and are never
 * consulted for that group.
 *
 * <p>Behind a {@link ControlPlane} ({@link #startBehind}, then {@link #serveThroughAggregator}): kube-apiserver 1.20
 * proxies one group/version to it through an {@code APIService}, authenticating as its front proxy. This server then
 * trusts the caller named in the X-Remote-* headers (its request-header CA comes from kube-apiserver's
 * {@code extension-apiserver-authentication} ConfigMap), asks kube-apiserver to authorize each request
 * (SubjectAccessReview, so RBAC applies), and feeds its namespace and webhook admission from it. The CRDs are created
 * on this server directly, never on kube-apiserver: there they would claim the same group.
 */
public final class ApiExtensionsServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ApiExtensionsServer.class.getName());
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);
    /** Plugins that watch core or admissionregistration objects, which this server does not serve. */
    private static final String DISABLED_ADMISSION = "NamespaceLifecycle,MutatingAdmissionPolicy,"
            + "MutatingAdmissionWebhook,ValidatingAdmissionPolicy,ValidatingAdmissionWebhook";

    private static final String DISABLED_BEHIND_1_20 = "MutatingAdmissionPolicy,ValidatingAdmissionPolicy";
    /** The Service through which kube-apiserver's aggregator reaches this server (an ExternalName to 127.0.0.1). */
    static final String SERVICE_NAMESPACE = "kube-system";

    static final String SERVICE_NAME = "apiextensions-1-36";
    static final String SERVICE_DNS_NAME = SERVICE_NAME + "." + SERVICE_NAMESPACE + ".svc";

    private final Path workDir;
    private final ApiExtensionsBinaries binaries;
    private final ControlPlane delegate;
    private final List<LocalProcess> processes = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::stopProcesses, "apiext-shutdown");
    private URI url;
    private Path caFile;
    private Path kubeconfig;
    private Duration timeToReady;

    private ApiExtensionsServer(Path workDir, ApiExtensionsBinaries binaries, ControlPlane delegate) {
        this.workDir = workDir.toAbsolutePath();
        this.binaries = binaries;
        this.delegate = delegate;
    }

    /** Starts standalone, with its state, certificates and logs in {@code workDir}, which must be absent or empty. */
    public static ApiExtensionsServer start(Path workDir) throws InterruptedException {
        return launch(workDir, null);
    }

    /** Starts delegating authentication, authorization and admission informers to {@code plane}. */
    public static ApiExtensionsServer startBehind(ControlPlane plane, Path workDir) throws InterruptedException {
        return launch(workDir, plane);
    }

    private static ApiExtensionsServer launch(Path workDir, ControlPlane delegate) throws InterruptedException {
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
        ApiExtensionsServer server = new ApiExtensionsServer(workDir, binaries, delegate);
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
            throw new IllegalStateException(
                    "apiextensions-apiserver did not start: " + e.getMessage() + "; logs: " + server.logs(), e);
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
        caFile = ca.file();
        LocalCa.KeyFiles serving = ca.issueLoopbackServer("apiextensions-apiserver", SERVICE_DNS_NAME, pki, "serving");
        LocalCa.KeyFiles admin = ca.issueClient("admin", "system:masters", pki, "admin");
        url = URI.create("https://127.0.0.1:" + ports[2]);
        kubeconfig = Kubeconfig.writeWithClientCertificate(workDir.resolve("kubeconfig"), url, ca.file(), admin);

        List<String> command = new ArrayList<>(List.of(
                binaries.apiServer().toString(),
                "--etcd-servers=" + etcd,
                "--bind-address=127.0.0.1",
                "--secure-port=" + ports[2],
                "--tls-cert-file=" + serving.certificate(),
                "--tls-private-key-file=" + serving.key(),
                // our own admin certificate works in both modes
                "--client-ca-file=" + ca.file(),
                // flowcontrol.apiserver.k8s.io/v1 is not served by 1.20 either
                "--enable-priority-and-fairness=false",
                "--profiling=false"));
        if (delegate == null) {
            command.addAll(List.of(
                    "--authentication-skip-lookup",
                    // mandatory outside a Pod; clients in system:masters never reach the delegated checks
                    "--kubeconfig=" + kubeconfig,
                    "--authentication-kubeconfig=" + kubeconfig,
                    "--authorization-kubeconfig=" + kubeconfig,
                    "--disable-admission-plugins=" + DISABLED_ADMISSION));
        } else {
            Path main = delegate.kubeconfig();
            command.addAll(List.of(
                    "--kubeconfig=" + main,
                    "--authentication-kubeconfig=" + main,
                    "--authorization-kubeconfig=" + main,
                    // admission policies are admissionregistration.k8s.io/v1 kinds that 1.20 does not serve
                    "--disable-admission-plugins=" + DISABLED_BEHIND_1_20));
        }
        LocalProcess server = run("apiextensions-apiserver", command);
        // /readyz stays red standalone (its Service informer has no core API to sync from); /livez is the signal
        ReadinessProbe.https(url.resolve("/livez"), ca.file(), Optional.empty()).await(server, deadline);
        timeToReady = Duration.between(started, Instant.now());
        LOG.log(
                Level.INFO,
                "apiextensions-apiserver {0} ready at {1} after {2} ms (work dir {3})",
                ApiExtensionsBinaries.VERSION,
                url,
                timeToReady.toMillis(),
                workDir);
    }

    /**
     * Registers this server with the delegate's aggregator for {@code group}/{@code version} (an ExternalName Service
     * and an APIService that trusts this server's CA) and waits until the APIService is Available.
     */
    public void serveThroughAggregator(String group, String version) throws InterruptedException {
        if (delegate == null) {
            throw new IllegalStateException("started standalone; use startBehind(plane, dir)");
        }
        try (KubernetesClient client = delegate.newClient()) {
            client.resource(new ServiceBuilder()
                            .withNewMetadata()
                            .withName(SERVICE_NAME)
                            .withNamespace(SERVICE_NAMESPACE)
                            .endMetadata()
                            .withNewSpec()
                            .withType("ExternalName")
                            .withExternalName("127.0.0.1")
                            .endSpec()
                            .build())
                    .createOr(NonDeletingOperation::update);
            String name = version + "." + group;
            GenericKubernetesResource apiService = new GenericKubernetesResourceBuilder()
                    .withApiVersion("apiregistration.k8s.io/v1")
                    .withKind("APIService")
                    .withNewMetadata()
                    .withName(name)
                    .endMetadata()
                    .addToAdditionalProperties(
                            "spec",
                            Map.of(
                                    "group",
                                    group,
                                    "version",
                                    version,
                                    "groupPriorityMinimum",
                                    1000,
                                    "versionPriority",
                                    15,
                                    "caBundle",
                                    Base64.getEncoder().encodeToString(Files.readAllBytes(caFile)),
                                    "service",
                                    Map.of(
                                            "namespace",
                                            SERVICE_NAMESPACE,
                                            "name",
                                            SERVICE_NAME,
                                            "port",
                                            url.getPort())))
                    .build();
            client.resource(apiService).createOr(NonDeletingOperation::update);
            Instant deadline = Instant.now().plus(STARTUP_TIMEOUT);
            String last = "no status yet";
            while (Instant.now().isBefore(deadline)) {
                processes.getLast().ensureAlive();
                GenericKubernetesResource current = client.genericKubernetesResources(
                                "apiregistration.k8s.io/v1", "APIService")
                        .withName(name)
                        .get();
                Object conditions = current == null
                        ? null
                        : ((Map<?, ?>) current.getAdditionalProperties().getOrDefault("status", Map.of()))
                                .get("conditions");
                if (conditions instanceof List<?> list) {
                    for (Object entry : list) {
                        Map<?, ?> condition = (Map<?, ?>) entry;
                        if ("Available".equals(condition.get("type"))) {
                            // Available can come before the proxy serves discovery for the group version
                            if ("True".equals(condition.get("status")) && discovered(client, group + "/" + version)) {
                                LOG.log(Level.INFO, "APIService {0} is Available through kube-apiserver", name);
                                return;
                            }
                            last = condition.get("reason") + ": " + condition.get("message");
                        }
                    }
                }
                Thread.sleep(250);
            }
            throw new IllegalStateException(
                    "APIService " + name + " not Available before the deadline (" + last + "); see " + logs());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + caFile, e);
        }
    }

    /**
     * Creates (server-side apply) every CRD in the {@code *.yaml} files of {@code directory} on this server, waits
     * until each is Established, and registers each served group version with the aggregator. Returns them.
     */
    public List<String> serveCustomResourceDefinitions(Path directory) throws InterruptedException {
        List<CustomResourceDefinition> crds = new ArrayList<>();
        try (KubernetesClient client = newClient();
                Stream<Path> files = Files.list(directory)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                try (InputStream in = Files.newInputStream(file)) {
                    CustomResourceDefinition crd =
                            client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
                    crds.add(client.resource(crd)
                            .fieldManager("local-kube")
                            .forceConflicts()
                            .serverSideApply());
                }
            }
            for (CustomResourceDefinition crd : crds) {
                client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName(crd.getMetadata().getName())
                        .waitUntilCondition(ApiExtensionsServer::established, 1, TimeUnit.MINUTES);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read CRDs from " + directory, e);
        }
        List<String> groupVersions = crds.stream()
                .flatMap(crd -> crd.getSpec().getVersions().stream()
                        .filter(v -> Boolean.TRUE.equals(v.getServed()))
                        .map(v -> crd.getSpec().getGroup() + "/" + v.getName()))
                .distinct()
                .toList();
        for (String groupVersion : groupVersions) {
            serveThroughAggregator(
                    groupVersion.substring(0, groupVersion.indexOf('/')),
                    groupVersion.substring(groupVersion.indexOf('/') + 1));
        }
        return groupVersions;
    }

    private static boolean established(CustomResourceDefinition crd) {
        return crd != null
                && crd.getStatus() != null
                && crd.getStatus().getConditions() != null
                && crd.getStatus().getConditions().stream()
                        .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static boolean discovered(KubernetesClient client, String groupVersion) {
        try {
            APIResourceList resources = client.getApiResources(groupVersion);
            return resources != null && !resources.getResources().isEmpty();
        } catch (KubernetesClientException notYet) {
            return false;
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
