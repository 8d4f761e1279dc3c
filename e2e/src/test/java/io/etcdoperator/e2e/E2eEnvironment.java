package io.etcdoperator.e2e;

import io.etcdoperator.localkube.ApiExtensionsServer;
import io.etcdoperator.localkube.ControlPlane;
import io.etcdoperator.localkube.LocalKubernetes;
import io.etcdoperator.localkube.LocalKubernetesOptions;
import io.etcdoperator.localkube.node.ImageCatalogue;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One local Kubernetes (control plane + 3 simulated nodes) with the CRDs installed and the operator running as a
 * process, shared by every end-to-end test of a run. Each test works in its own namespace.
 *
 * <p>Our API group is served by a Kubernetes 1.36 apiextensions-apiserver behind kube-apiserver 1.20's aggregator,
 * so the CRDs' CEL rules are enforced (see docs/local-kubernetes.md). With {@code -De2e.cel=false} the CRDs live in
 * kube-apiserver 1.20, which drops the rules, as on a cluster older than 1.25.
 */
public final class E2eEnvironment implements AutoCloseable {

  public static final String OPERATOR_IMAGE = "ghcr.io/etcd-operator-java/etcd-operator:e2e";
  public static final ResourceDefinitionContext CLUSTERS = kind("etcdclusters", "EtcdCluster");
  public static final ResourceDefinitionContext MEMBERS = kind("etcdmembers", "EtcdMember");
  public static final String CLUSTER_LABEL = "etcd-operator.cozystack.io/cluster";
  // per JVM: two runs on one machine (a test run and a benchmark) must not share, or wipe, each other's state
  private static final Path WORK = Path.of("target", "e2e-" + ProcessHandle.current().pid()).toAbsolutePath();

  public static final String CEL_PROPERTY = "e2e.cel";

  private final Path work;
  private final LocalKubernetes kube;
  private final KubernetesClient client;
  private ApiExtensionsServer celServer;
  private OperatorProcess operator;
  private int operatorStarts;

  private E2eEnvironment(Path work, LocalKubernetes kube) {
    this.work = work;
    this.kube = kube;
    this.client = kube.client();
  }

  static E2eEnvironment start() throws Exception {
    return start(WORK, LocalKubernetesOptions.defaults().withNodes(3));
  }

  /** As the shared environment, in {@code work} and with these options (say, simulated etcd); the caller closes it. */
  public static E2eEnvironment start(Path work, LocalKubernetesOptions options) throws Exception {
    OperatorBinaryIT.deleteRecursively(work);
    Files.createDirectories(work);
    ImageCatalogue images = ImageCatalogue.withEtcdImages().host("busybox")
        .operator(OPERATOR_IMAGE, OperatorProcess.jar()).build();
    LocalKubernetes kube = LocalKubernetes.start(work.resolve("kube"), options.withImages(images));
    E2eEnvironment env = new E2eEnvironment(work, kube);
    if (celRequested()) {
      env.celServer = serveProjectApiFrom136(kube.controlPlane(), work.resolve("apiext"));
    } else {
      ProjectCrds.install(env.client);
    }
    env.startOperator();
    return env;
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
    return !"false".equalsIgnoreCase(System.getProperty(CEL_PROPERTY, "true").strip());
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

  public OperatorProcess operator() {
    return operator;
  }

  /** Starts the operator (again); it resolves member DNS names through the nodes' host-wide hosts file. */
  public OperatorProcess startOperator() {
    operatorStarts++;
    operator = OperatorProcess.start(work.resolve("operator-" + operatorStarts + ".log"),
        Map.of("KUBECONFIG", kube.kubeconfig().toString(), "POD_NAMESPACE", "default"),
        List.of("--metrics-bind-address", "127.0.0.1:0", "--health-probe-bind-address", "127.0.0.1:0",
            "--cluster-domain", "cluster.local", "--operator-image", OPERATOR_IMAGE,
            "--etcd-tools-dir", etcdTools(work).toString()),
        List.of("-Djdk.net.hosts.file=" + kube.hostsFile(), "-Dsun.net.inetaddr.ttl=1",
            "-Dsun.net.inetaddr.negative.ttl=0", "-Xmx512m"))
        .awaitStarted(Duration.ofSeconds(60));
    return operator;
  }

  /** The operator image's restore tools; on simulated nodes, links on the host's file system that Pods share. */
  private static Path etcdTools(Path work) {
    try {
      return ImageCatalogue.etcdTools(work.resolve("etcd-tools"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** SIGKILL, as when the operator's node dies: no shutdown hooks, no clean-up. */
  public void killOperator() throws InterruptedException {
    ProcessHandle.of(operator.pid()).ifPresent(ProcessHandle::destroyForcibly);
    operator.awaitExit(Duration.ofSeconds(30));
  }

  public String namespace(String name) {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return name;
  }

  public GenericKubernetesResource createCluster(String namespace, String name, Map<String, Object> spec) {
    GenericKubernetesResource cluster = new GenericKubernetesResource();
    cluster.setApiVersion("etcd-operator.cozystack.io/v1alpha2");
    cluster.setKind("EtcdCluster");
    cluster.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name)
        .withNamespace(namespace).build());
    cluster.setAdditionalProperty("spec", spec);
    return client.genericKubernetesResources(CLUSTERS).inNamespace(namespace).resource(cluster).create();
  }

  /** Loads a manifest from config/samples into {@code namespace}. */
  public GenericKubernetesResource createFromSample(String file, String namespace) {
    try (var in = Files.newInputStream(ProjectCrds.directory().resolve("../../samples").resolve(file).normalize())) {
      GenericKubernetesResource resource = client.getKubernetesSerialization()
          .unmarshal(in, GenericKubernetesResource.class);
      resource.getMetadata().setNamespace(namespace);
      return client.genericKubernetesResources(CLUSTERS).inNamespace(namespace).resource(resource).create();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public GenericKubernetesResource cluster(String namespace, String name) {
    return client.genericKubernetesResources(CLUSTERS).inNamespace(namespace).withName(name).get();
  }

  public void patchSpec(String namespace, String name, String mergePatchJson) {
    client.genericKubernetesResources(CLUSTERS).inNamespace(namespace).withName(name)
        .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
            io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE), "{\"spec\":" + mergePatchJson + "}");
  }

  public static Map<String, Object> status(GenericKubernetesResource r) {
    Object status = r == null ? null : r.getAdditionalProperties().get("status");
    @SuppressWarnings("unchecked")
    Map<String, Object> map = status instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    return map;
  }

  /** Waits until status.readyMembers == n with n running member Pods, and returns how long it took. */
  public Duration awaitReady(String namespace, String name, int n, Duration timeout) {
    Instant started = Instant.now();
    Await.until(namespace + "/" + name + " READY=" + n, timeout, () -> {
      Map<String, Object> status = status(cluster(namespace, name));
      return Integer.valueOf(n).equals(status.get("readyMembers")) && memberPods(namespace, name).size() == n;
    });
    return Duration.between(started, Instant.now());
  }

  public List<Pod> memberPods(String namespace, String cluster) {
    return client.pods().inNamespace(namespace).withLabel(CLUSTER_LABEL, cluster).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
  }

  public List<GenericKubernetesResource> members(String namespace, String cluster) {
    return client.genericKubernetesResources(MEMBERS).inNamespace(namespace).withLabel(CLUSTER_LABEL, cluster)
        .list().getItems();
  }

  /** Client URLs of the member Pods by IP, reachable from the host. */
  public String endpoints(String namespace, String cluster) {
    return String.join(",", memberPods(namespace, cluster).stream()
        .map(p -> Optional.ofNullable(p.getStatus().getPodIP()).map(ip -> "http://" + ip + ":2379"))
        .flatMap(Optional::stream).toList());
  }

  /** Runs etcdctl 3.5 on the host; returns stdout, fails with stderr on a non-zero exit. */
  public String etcdctl(String endpoints, String... args) {
    List<String> command = new ArrayList<>(List.of(etcdctlBinary().toString(), "--endpoints=" + endpoints,
        "--command-timeout=10s", "--dial-timeout=5s"));
    command.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.PIPE).start();
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
    return kube.faults().nodeOf(namespace, pod.getMetadata().getName())
        .exec(namespace, pod.getMetadata().getName(), "etcd", command, Duration.ofSeconds(30));
  }

  private static ResourceDefinitionContext kind(String plural, String kind) {
    return new ResourceDefinitionContext.Builder().withGroup("etcd-operator.cozystack.io").withVersion("v1alpha2")
        .withPlural(plural).withKind(kind).withNamespaced(true).build();
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
