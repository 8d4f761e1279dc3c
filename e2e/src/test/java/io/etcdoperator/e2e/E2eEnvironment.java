package io.etcdoperator.e2e;

import io.etcdoperator.localkube.ApiExtensionsServer;
import io.etcdoperator.localkube.ControlPlane;
import io.etcdoperator.localkube.LocalKubernetes;
import io.etcdoperator.localkube.LocalKubernetesOptions;
import io.etcdoperator.localkube.network.CachedHostsResolver;
import io.etcdoperator.localkube.node.ContainerRootfs;
import io.etcdoperator.localkube.node.ImageCatalogue;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One local Kubernetes (control plane + 3 simulated nodes) with the CRDs installed and the operator running, shared
 * by every end-to-end test of a test JVM (-De2e.forks=2 runs two side by side). Each test works in its own namespace.
 *
 * <p>By default the operator runs as users run it: hack/image.sh builds its image once per JVM, the chart installs it
 * (Deployment etcd-operator in etcd-operator-system: in-cluster config, leader election, probes), and a node runs it
 * in a runc container; snapshot Jobs and restore init containers run that same image. With
 * {@code -De2e.operator=host}, or for a test that calls {@link #useHostOperator()}, it is a JVM on the host.
 *
 * <p>Our API group is served by a Kubernetes 1.36 apiextensions-apiserver behind kube-apiserver 1.20's aggregator,
 * so the CRDs' CEL rules are enforced (see docs/local-kubernetes.md). With {@code -De2e.cel=false} the CRDs live in
 * kube-apiserver 1.20, which drops the rules, as on a cluster older than 1.25.
 */
public final class E2eEnvironment implements AutoCloseable {

    public static final String OPERATOR_IMAGE = "ghcr.io/etcd-operator-java/etcd-operator:e2e";
    /** The same image under another tag: an operator upgrade that renders member Pods with another agent image. */
    public static final String OPERATOR_IMAGE_NEXT = "ghcr.io/etcd-operator-java/etcd-operator:e2e-next";
    /** The chart's memberMinReadySeconds in the e2e run: short, so rolls still wait but the run does not. */
    public static final int MEMBER_MIN_READY_SECONDS = Integer.getInteger("e2e.minReadySeconds", 3);

    public static final ResourceDefinitionContext CLUSTERS = kind("etcdclusters", "EtcdCluster");
    public static final ResourceDefinitionContext MEMBERS = kind("etcdmembers", "EtcdMember");
    public static final String CLUSTER_LABEL = "etcd-operator.cozystack.io/cluster";
    // per JVM: two runs on one machine (a test run and a benchmark) must not share, or wipe, each other's state
    private static final Path WORK =
            Path.of("target", "e2e-" + ProcessHandle.current().pid()).toAbsolutePath();

    public static final String CEL_PROPERTY = "e2e.cel";
    public static final String OPERATOR_PROPERTY = "e2e.operator";
    private static final Path ROOT =
            ProjectCrds.directory().resolve("../../..").toAbsolutePath().normalize();

    private final LocalKubernetes kube;
    private final KubernetesClient client;
    private ApiExtensionsServer celServer;
    private final boolean image;
    private final Path work;
    /** Namespaces made since the last {@link #deleteNamespaces}: a finished class's clusters stop taking CPU. */
    private final Set<String> namespaces = ConcurrentHashMap.newKeySet();

    private OperatorPod pod;
    private OperatorProcess operator;
    private int operatorStarts;

    private E2eEnvironment(Path work, LocalKubernetes kube, boolean image) {
        this.work = work;
        this.kube = kube;
        this.client = kube.client();
        this.image = image;
    }

    static E2eEnvironment start() throws Exception {
        deleteStaleRuns();
        return start(WORK, LocalKubernetesOptions.defaults().withNodes(3), imageRequested());
    }

    /** The state of earlier runs whose JVM has ended (their PVC volumes alone are gigabytes) goes before a new one. */
    private static void deleteStaleRuns() throws IOException {
        try (var dirs = Files.list(WORK.getParent())) {
            for (Path dir : dirs.toList()) {
                String name = dir.getFileName().toString();
                if (name.matches("e2e-[0-9]+")
                        && ProcessHandle.of(Long.parseLong(name.substring(4))).isEmpty()) {
                    OperatorBinaryIT.deleteRecursively(dir);
                }
            }
        } catch (NoSuchFileException e) {
            // no earlier run
        }
    }

    /**
     * As the shared environment, in {@code work} and with these options (say, simulated etcd), with the operator as a
     * host JVM (benchmarks sample its process); the caller closes it.
     */
    public static E2eEnvironment start(Path work, LocalKubernetesOptions options) throws Exception {
        return start(work, options, false);
    }

    /**
     * A class's own environment in {@code <run>/<name>}, the operator as in the shared one, with members from the etcd
     * images in runc (a memory cgroup, so a limit can OOM-kill etcd) whatever {@code -De2e.etcd} says; the caller closes
     * it. Each local Kubernetes has its own bridge, so it can run beside the shared environment.
     */
    public static E2eEnvironment startWithContainerEtcd(String name) throws Exception {
        deleteStaleRuns();
        return start(WORK.resolve(name), LocalKubernetesOptions.defaults().withNodes(3), imageRequested(), true);
    }

    private static E2eEnvironment start(Path work, LocalKubernetesOptions options, boolean image) throws Exception {
        // -De2e.etcd=container: members from the etcd images in runc too, as in the sandbox (slower to start)
        return start(work, options, image, "container".equals(System.getProperty("e2e.etcd", "host")));
    }

    private static E2eEnvironment start(Path work, LocalKubernetesOptions options, boolean image, boolean containerEtcd)
            throws Exception {
        OperatorBinaryIT.deleteRecursively(work);
        Files.createDirectories(work);
        ImageCatalogue.Builder images = containerEtcd
                ? ImageCatalogue.withContainerEtcdImages(work.resolve("images")).host("busybox")
                : ImageCatalogue.withEtcdImages().host("busybox");
        if (image) {
            var rootfs = ContainerRootfs.unpack(buildImage(), "dev", work.resolve("images/operator"));
            images.rootfs(OPERATOR_IMAGE, rootfs).rootfs(OPERATOR_IMAGE_NEXT, rootfs);
        } else {
            images.operator(OPERATOR_IMAGE, OperatorProcess.jar()).operator(OPERATOR_IMAGE_NEXT, OperatorProcess.jar());
        }
        LocalKubernetes kube = LocalKubernetes.start(work.resolve("kube"), options.withImages(images.build()));
        E2eEnvironment env = new E2eEnvironment(work, kube, image);
        if (celRequested()) {
            env.celServer = serveProjectApiFrom136(kube.controlPlane(), work.resolve("apiext"));
        } else {
            ProjectCrds.install(env.client);
        }
        if (image) {
            env.installChart();
        } else {
            env.startOperator();
        }
        return env;
    }

    /**
     * The image from hack/image.sh (an OCI layout, tag dev), built once per test JVM into the JVM's own directory: the
     * e2e forks run side by side, and each build starts by deleting its layout.
     */
    private static Path buildImage() throws IOException, InterruptedException {
        Instant started = Instant.now();
        List<String> out = run(
                WORK.resolve("image-build.log"),
                List.of(ROOT.resolve("hack/image.sh").toString()),
                Map.of("IMAGE_OUT", WORK.resolve("image").toString()));
        System.out.printf(
                "e2e: operator image built in %d s%n",
                Duration.between(started, Instant.now()).toSeconds());
        return Path.of(out.getLast().strip());
    }

    /**
     * helm install of charts/etcd-operator as docs/installation.md says, without CRDs (crds.install=false; they are
     * templates now) because the CRDs are in place
     * (on the 1.36 server, or refused by Helm's strict validation on 1.20); waits for the Deployment to be available.
     */
    private void installChart() throws IOException, InterruptedException {
        Instant started = Instant.now();
        run(
                WORK.resolve("helm.log"),
                List.of(
                        helm(),
                        "install",
                        "etcd-operator",
                        ROOT.resolve("charts/etcd-operator").toString(),
                        "--kubeconfig",
                        kube.kubeconfig().toString(),
                        "--namespace",
                        OperatorPod.NAMESPACE,
                        "--create-namespace",
                        "--skip-crds",
                        "--set",
                        "crds.install=false",
                        "--set",
                        "image.tag=" + OPERATOR_IMAGE.substring(OPERATOR_IMAGE.lastIndexOf(':') + 1),
                        "--set",
                        "extraArgs={--cluster-domain=cluster.local}",
                        // the default 10 s wait between the members of a roll cost about 40 s per roll-heavy class
                        // (docs/testing.md)
                        "--set",
                        "memberMinReadySeconds=" + MEMBER_MIN_READY_SECONDS),
                Map.of("HOME", WORK.resolve("helm-home").toString()));
        pod = new OperatorPod(client, kube.workDir().resolve("nodes/pods"));
        pod.scale(1, Duration.ofMinutes(3));
        System.out.printf(
                "e2e: chart installed, operator Pod ready in %d s%n",
                Duration.between(started, Instant.now()).toSeconds());
    }

    /**
     * helm upgrade of the release with {@code --reuse-values} plus {@code settings} (e.g. {@code --set k=v}); waits until
     * the new operator Pod is Ready and the old one gone.
     */
    public void upgradeChart(List<String> settings) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                helm(),
                "upgrade",
                "etcd-operator",
                ROOT.resolve("charts/etcd-operator").toString(),
                "--kubeconfig",
                kube.kubeconfig().toString(),
                "--namespace",
                OperatorPod.NAMESPACE,
                "--reuse-values"));
        command.addAll(settings);
        run(
                WORK.resolve("helm.log"),
                command,
                Map.of("HOME", WORK.resolve("helm-home").toString()));
        Await.until(
                "one operator Pod after the upgrade",
                Duration.ofMinutes(3),
                () -> client.pods()
                                .inNamespace(OperatorPod.NAMESPACE)
                                .list()
                                .getItems()
                                .size()
                        == 1);
        pod.scale(1, Duration.ofMinutes(3));
    }

    /** helm template of charts/etcd-operator by the helm that installed it, with {@code settings}: the manifest. */
    public static String helmTemplate(List<String> settings) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                helm(),
                "template",
                "etcd-operator",
                ROOT.resolve("charts/etcd-operator").toString(),
                "--namespace",
                OperatorPod.NAMESPACE));
        command.addAll(settings);
        return String.join(
                "\n",
                run(
                        WORK.resolve("helm.log"),
                        command,
                        Map.of("HOME", WORK.resolve("helm-home").toString())));
    }

    private static String helm() throws IOException, InterruptedException {
        return run(
                        WORK.resolve("helm.log"),
                        List.of(ROOT.resolve("hack/helm.sh").toString(), "--path"))
                .getLast()
                .strip();
    }

    /** On unless {@code -De2e.operator=host}: the operator from its image, installed by the chart. */
    static boolean imageRequested() {
        return !"host"
                .equalsIgnoreCase(System.getProperty(OPERATOR_PROPERTY, "image").strip());
    }

    private static List<String> run(Path log, List<String> command) throws IOException, InterruptedException {
        return run(log, command, Map.of());
    }

    /** Runs a command to its end, stderr appended to {@code log}; its stdout lines, or a failure naming the log. */
    private static List<String> run(Path log, List<String> command, Map<String, String> env)
            throws IOException, InterruptedException {
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(env);
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0) {
            throw new IllegalStateException(command + " failed with " + process.exitValue() + "; see " + log);
        }
        return out.lines().toList();
    }

    /**
     * Starts a 1.36 apiextensions-apiserver behind {@code plane}, creates the CRDs there (never in kube-apiserver 1.20,
     * whose own CRDs would claim the group) and registers etcd-operator.cozystack.io/v1alpha2 with the aggregator.
     */
    static ApiExtensionsServer serveProjectApiFrom136(ControlPlane plane, Path workDir) throws InterruptedException {
        ApiExtensionsServer server = ApiExtensionsServer.startBehind(plane, workDir);
        try (KubernetesClient direct = server.newClient()) {
            ProjectCrds.install(direct);
        }
        server.serveThroughAggregator("etcd-operator.cozystack.io", "v1alpha2");
        return server;
    }

    /** On unless {@code -De2e.cel=false}. */
    static boolean celRequested() {
        return !"false"
                .equalsIgnoreCase(System.getProperty(CEL_PROPERTY, "true").strip());
    }

    /** Whether the API server enforces the CRDs' CEL rules (the 1.36 server behind the aggregator). */
    public boolean celEnforced() {
        return celServer != null;
    }

    public KubernetesClient client() {
        return client;
    }

    public LocalKubernetes kube() {
        return kube;
    }

    /** The operator that runs now: the chart's Pod, or the host JVM while a test uses one. */
    public Operator operator() {
        return operator != null ? operator : pod;
    }

    /** Whether the shared operator is the chart's Pod from the image (the default), not a host JVM. */
    public boolean operatorFromImage() {
        return image;
    }

    /**
     * For a test that must kill the operator at chosen points ({@link #killOperator()}): stops the chart's Pod
     * (Deployment scaled to 0) and starts the operator as a host JVM. {@link #useDefaultOperator()} undoes it.
     */
    public OperatorProcess useHostOperator() throws InterruptedException {
        stopOperator();
        return startHostOperator();
    }

    /** Back to the run's operator after {@link #useHostOperator()} or {@link #stopOperator()}. */
    public void useDefaultOperator() throws InterruptedException {
        if (operator != null) {
            killOperator();
            operator = null;
        }
        if (image) {
            pod.scale(1, Duration.ofMinutes(3));
        } else {
            startHostOperator();
        }
    }

    /** Stops whichever operator runs (the chart's Pod by scaling to 0, a host JVM by SIGKILL), for a test's own. */
    public void stopOperator() throws InterruptedException {
        if (operator != null) {
            killOperator();
            operator = null;
        } else if (pod != null) {
            pod.scale(0, Duration.ofMinutes(2));
        }
    }

    /** Starts the host-JVM operator (again), after {@link #useHostOperator()} and {@link #killOperator()}. */
    public OperatorProcess startOperator() {
        if (image && operator == null) {
            throw new IllegalStateException("the chart's operator runs; call useHostOperator() first");
        }
        return startHostOperator();
    }

    /** It resolves member DNS names through the nodes' host-wide hosts file. */
    private OperatorProcess startHostOperator() {
        operatorStarts++;
        List<String> args = new ArrayList<>(List.of(
                "--metrics-bind-address",
                "127.0.0.1:0",
                "--health-probe-bind-address",
                "127.0.0.1:0",
                "--cluster-domain",
                "cluster.local",
                "--operator-image",
                OPERATOR_IMAGE,
                "--member-min-ready-seconds",
                String.valueOf(MEMBER_MIN_READY_SECONDS)));
        if (!image) {
            // agent Pods run the host jar then; the image's own tools are at its default /opt/etcd-tools
            args.addAll(List.of("--etcd-tools-dir", etcdTools(work).toString()));
        }
        operator = OperatorProcess.start(
                        work.resolve("operator-" + operatorStarts + ".log"),
                        Map.of(
                                "KUBECONFIG",
                                kube.kubeconfig().toString(),
                                "POD_NAMESPACE",
                                "default",
                                "MALLOC_ARENA_MAX",
                                "2"),
                        args, // as the image sets it
                        hostJvmFlags())
                .awaitStarted(Duration.ofSeconds(60));
        return operator;
    }

    /**
     * The JVM flags of a host-JVM operator: member names from the nodes' hosts file (parsed once per change, see
     * {@link CachedHostsResolver}), and {@link #hostOperatorJvm()}.
     */
    public List<String> hostJvmFlags() {
        List<String> flags = new ArrayList<>(List.of(
                "-javaagent:" + resolverAgent(),
                "-D" + CachedHostsResolver.PROPERTY + "=" + kube.hostsFile(),
                "-Dsun.net.inetaddr.ttl=1",
                "-Dsun.net.inetaddr.negative.ttl=0"));
        String chosen = hostOperatorJvm();
        if (!chosen.isEmpty()) {
            flags.addAll(List.of(chosen.split("\\s+")));
        }
        return flags;
    }

    private Path resolverAgent() {
        try {
            return CachedHostsResolver.agentJar(work.resolve("resolver-agent"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code -De2e.operator.jvm="..."} replaces the heap flag (benches measure the shipped settings on the host). */
    public static String hostOperatorJvm() {
        return System.getProperty("e2e.operator.jvm", "-Xmx512m").strip();
    }

    /** The repository's root directory. */
    public static Path projectRoot() {
        return ROOT;
    }

    /** The operator image's restore tools; on simulated nodes, links on the host's file system that Pods share. */
    private static Path etcdTools(Path work) {
        try {
            return ImageCatalogue.etcdTools(work.resolve("etcd-tools"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL of the host-JVM operator, as when its node dies: no shutdown hooks, no clean-up. */
    public void killOperator() throws InterruptedException {
        if (operator == null) {
            throw new IllegalStateException("no host-JVM operator runs; call useHostOperator() first");
        }
        ProcessHandle.of(operator.pid()).ifPresent(ProcessHandle::destroyForcibly);
        operator.awaitExit(Duration.ofSeconds(30));
    }

    public String namespace(String name) {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .build())
                .create();
        namespaces.add(name);
        return name;
    }

    /**
     * Deletes the namespaces made since the last call, without waiting: the clusters a finished test class left would
     * otherwise run to the end of the run, and their etcd and the operator's passes over them slow every later class.
     */
    public void deleteNamespaces() {
        List<String> done = List.copyOf(namespaces);
        namespaces.removeAll(done);
        done.forEach(n -> client.namespaces().withName(n).delete());
    }

    public GenericKubernetesResource createCluster(String namespace, String name, Map<String, Object> spec) {
        GenericKubernetesResource cluster = new GenericKubernetesResource();
        cluster.setApiVersion("etcd-operator.cozystack.io/v1alpha2");
        cluster.setKind("EtcdCluster");
        cluster.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        cluster.setAdditionalProperty("spec", spec);
        return client.genericKubernetesResources(CLUSTERS)
                .inNamespace(namespace)
                .resource(cluster)
                .create();
    }

    /** Loads a manifest from config/samples into {@code namespace}. */
    public GenericKubernetesResource createFromSample(String file, String namespace) {
        try (var in = Files.newInputStream(
                ProjectCrds.directory().resolve("../../samples").resolve(file).normalize())) {
            GenericKubernetesResource resource =
                    client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
            resource.getMetadata().setNamespace(namespace);
            return client.genericKubernetesResources(CLUSTERS)
                    .inNamespace(namespace)
                    .resource(resource)
                    .create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public GenericKubernetesResource cluster(String namespace, String name) {
        return client.genericKubernetesResources(CLUSTERS)
                .inNamespace(namespace)
                .withName(name)
                .get();
    }

    public void patchSpec(String namespace, String name, String mergePatchJson) {
        client.genericKubernetesResources(CLUSTERS)
                .inNamespace(namespace)
                .withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":" + mergePatchJson + "}");
    }

    public static Map<String, Object> status(GenericKubernetesResource r) {
        Object status = r == null ? null : r.getAdditionalProperties().get("status");
        @SuppressWarnings("unchecked")
        Map<String, Object> map = status instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        return map;
    }

    /** Waits until status.readyMembers == n with n running member Pods, and returns how long it took. */
    public Duration awaitReady(String namespace, String name, int n, Duration timeout) {
        return awaitReady(namespace, name, n, timeout, Duration.ofMillis(250));
    }

    /** READY=n, looked at every {@code poll} (benchmarks look every 20 ms, as the floor does). */
    public Duration awaitReady(String namespace, String name, int n, Duration timeout, Duration poll) {
        Instant started = Instant.now();
        try {
            Await.until(namespace + "/" + name + " READY=" + n, timeout, poll, () -> {
                Map<String, Object> status = status(cluster(namespace, name));
                return Integer.valueOf(n).equals(status.get("readyMembers"))
                        && memberPods(namespace, name).size() == n;
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; " + describe(namespace, name), e); // CI shows only this line
        }
        return Duration.between(started, Instant.now());
    }

    /** The cluster's conditions and its member Pods' states, for a failure message. */
    public String describe(String namespace, String name) {
        try {
            Object conditions = status(cluster(namespace, name)).get("conditions");
            String pods = memberPods(namespace, name).stream()
                    .map(p -> p.getMetadata().getName() + ":"
                            + p.getStatus().getPhase() + "/restarts="
                            + p.getStatus().getContainerStatuses().stream()
                                    .mapToInt(c -> c.getRestartCount())
                                    .sum())
                    .toList()
                    .toString();
            return "conditions " + conditions + ", pods " + pods;
        } catch (RuntimeException e) {
            return "state unknown: " + e;
        }
    }

    /**
     * A new namespace with a 3-member PVC cluster (3.5.16) at READY=3 and its seed's one ClusterFormed restart behind
     * it, so a fault hits a settled cluster; returns the namespace.
     */
    public String formedPvcCluster(String namespace, String name) {
        String ns = createPvcCluster(namespace, name);
        awaitFormed(ns, name);
        return ns;
    }

    /**
     * The first half of {@link #formedPvcCluster}: a class whose tests each need one creates them all up front (say in
     * {@code @BeforeAll}), so that they form at the same time, and each test then calls {@link #awaitFormed}.
     */
    public String createPvcCluster(String namespace, String name) {
        String ns = namespace(namespace);
        createCluster(ns, name, Map.of("replicas", 3, "version", "3.5.16", "storage", Map.of("size", "256Mi")));
        return ns;
    }

    /** READY=3 and Progressing=False/Reconciled: the seed's ClusterFormed restart is behind the cluster. */
    public void awaitFormed(String ns, String name) {
        awaitReady(ns, name, 3, Duration.ofMinutes(5));
        Await.until(
                "Progressing=False/Reconciled",
                Duration.ofMinutes(3),
                () -> EtcdStatus.condition(cluster(ns, name), "Progressing")
                        .filter(c -> "Reconciled".equals(c.get("reason")))
                        .isPresent());
    }

    /** Time since the EtcdCluster was created, for printed numbers when a test awaits a cluster created earlier. */
    public Duration sinceCreated(String ns, String name) {
        return Duration.between(Instant.parse(cluster(ns, name).getMetadata().getCreationTimestamp()), Instant.now());
    }

    public List<Pod> memberPods(String namespace, String cluster) {
        return client.pods().inNamespace(namespace).withLabel(CLUSTER_LABEL, cluster).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .toList();
    }

    public List<GenericKubernetesResource> members(String namespace, String cluster) {
        return client.genericKubernetesResources(MEMBERS)
                .inNamespace(namespace)
                .withLabel(CLUSTER_LABEL, cluster)
                .list()
                .getItems();
    }

    /** Client URLs of the member Pods by IP, reachable from the host. */
    public String endpoints(String namespace, String cluster) {
        return String.join(
                ",",
                memberPods(namespace, cluster).stream()
                        .filter(p -> p.getStatus().getPodIP() != null)
                        .map(E2eEnvironment::clientUrl)
                        .toList());
    }

    /** A member Pod's plain-HTTP client URL, by its IP (no cluster DNS on the host). */
    public static String clientUrl(Pod member) {
        return "http://" + member.getStatus().getPodIP() + ":2379";
    }

    /** Runs etcdctl 3.5 on the host; returns stdout, fails with stderr on a non-zero exit. */
    public String etcdctl(String endpoints, String... args) {
        List<String> command = new ArrayList<>(List.of(
                etcdctlBinary().toString(), "--endpoints=" + endpoints, "--command-timeout=10s", "--dial-timeout=5s"));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.PIPE)
                    .start();
            String out = new String(p.getInputStream().readAllBytes());
            String err = new String(p.getErrorStream().readAllBytes());
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("etcdctl " + String.join(" ", args) + " failed: " + err.strip());
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Path etcdctlBinary() {
        for (String dir : new String[] {System.getProperty("etcd35.bin"), System.getenv("ETCD35_BIN"), "/usr/bin"}) {
            if (dir != null && !dir.isBlank() && Files.isExecutable(Path.of(dir, "etcdctl"))) {
                return Path.of(dir, "etcdctl");
            }
        }
        throw new IllegalStateException("no etcdctl found (ETCD35_BIN or /usr/bin)");
    }

    /** Runs a command inside a Pod (its network namespace and hosts file) and returns the exit code. */
    public int exec(String namespace, Pod pod, List<String> command) {
        return kube.faults()
                .nodeOf(namespace, pod.getMetadata().getName())
                .exec(namespace, pod.getMetadata().getName(), "etcd", command, Duration.ofSeconds(30));
    }

    private static ResourceDefinitionContext kind(String plural, String kind) {
        return new ResourceDefinitionContext.Builder()
                .withGroup("etcd-operator.cozystack.io")
                .withVersion("v1alpha2")
                .withPlural(plural)
                .withKind(kind)
                .withNamespaced(true)
                .build();
    }

    @Override
    public void close() {
        if (operator != null) {
            operator.close();
        }
        if (celServer != null) {
            celServer.close();
        }
        kube.close();
    }
}
