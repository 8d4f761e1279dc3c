package io.etcdoperator.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The chart as helm (v3, embedded) lints and renders it: a golden file pins the default rendering, dist/install.yaml
 * must be the current release manifest, and the CRDs and ClusterRole rules must be the ones in config/.
 * {@code -Dgolden.update=true} rewrites the golden and dist/install.yaml and fails, so the diff is looked at.
 */
class ChartTest {

  static final Path MODULE = Path.of(System.getProperty("basedir", "charts"));
  static final Path CHART = MODULE.resolve("etcd-operator");
  static final Path ROOT = MODULE.toAbsolutePath().getParent();
  static final String NAMESPACE = "etcd-operator-system";

  @Test
  void lintsStrictly() {
    LintResult lint = new Helm(CHART).lint().strict().call();
    assertThat(lint.isFailed()).as("helm lint --strict: %s", lint.getMessages()).isFalse();
  }

  @Test
  void rendersTheGoldenManifest() throws IOException {
    String rendered = new Helm(CHART).template().withName("etcd-operator").withNamespace(NAMESPACE).skipCrds().call();
    compare(MODULE.resolve("src/test/resources/golden/default.yaml"), rendered);
  }

  /** What `kubectl apply -f dist/install.yaml` installs: the namespace, the CRDs and the default release. */
  @Test
  void distInstallManifestIsCurrent() throws IOException {
    String namespace = "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + NAMESPACE + "\n";
    StringBuilder crds = new StringBuilder();
    try (Stream<Path> files = Files.list(CHART.resolve("crds"))) {
      for (Path crd : files.sorted().toList()) {
        crds.append("---\n# Source: etcd-operator/crds/").append(crd.getFileName()).append('\n')
            .append(Files.readString(crd));
      }
    }
    String rendered = new Helm(CHART).template().withName("etcd-operator").withNamespace(NAMESPACE).skipCrds().call();
    compare(ROOT.resolve("dist/install.yaml"),
        "# Rendered from charts/etcd-operator by ChartTest (-Dgolden.update=true); do not edit.\n" + namespace
            + crds + rendered);
  }

  @Test
  void crdsAreTheGeneratedOnes() throws IOException {
    try (Stream<Path> bases = Files.list(ROOT.resolve("config/crd/bases"))) {
      List<Path> files = bases.sorted().toList();
      assertThat(files).isNotEmpty();
      for (Path base : files) {
        Path copy = CHART.resolve("crds").resolve(base.getFileName());
        assertThat(copy).as("copy config/crd/bases/%s to charts/etcd-operator/crds/", base.getFileName()).exists();
        assertThat(Files.readString(copy)).as("charts/etcd-operator/crds/%s is stale", base.getFileName())
            .isEqualTo(Files.readString(base));
      }
      try (Stream<Path> copies = Files.list(CHART.resolve("crds"))) {
        assertThat(copies.count()).as("crds/ holds a CRD config/crd/bases lacks").isEqualTo(files.size());
      }
    }
  }

  @Test
  void clusterRoleRulesAreConfigRbac() throws IOException {
    ClusterRole config = Serialization.unmarshal(Files.readString(ROOT.resolve("config/rbac/role.yaml")),
        ClusterRole.class);
    ClusterRole rendered = find(render(Map.of()), ClusterRole.class);
    assertThat(rendered.getRules()).isEqualTo(config.getRules());
  }

  @Test
  void deploymentRunsWithLeaderElectionProbesAndRestrictedSecurity() {
    Deployment deployment = find(render(Map.of()), Deployment.class);
    var pod = deployment.getSpec().getTemplate().getSpec();
    var container = pod.getContainers().getFirst();
    assertThat(container.getArgs()).contains("--leader-elect", "--metrics-bind-address=:8080",
        "--health-probe-bind-address=:8081", "--operator-image=ghcr.io/etcd-operator-java/etcd-operator:0.1.0",
        "--etcd-image-repository=quay.io/coreos/etcd");
    assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(65532L);
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(container.getEnv()).extracting("name").contains("POD_NAME", "POD_NAMESPACE");
    assertThat(pod.getServiceAccountName()).isEqualTo("etcd-operator");
  }

  @Test
  void valuesReachTheDeployment() {
    Deployment deployment = find(render(Map.of("replicaCount", 2, "watchNamespaces[0]", "team-a",
        "watchNamespaces[1]", "team-b", "extraArgs[0]", "--cluster-domain=example.org",
        "etcdImage.repository", "registry.internal/mirror/etcd", "image.tag", "dev",
        "nodeSelector.disk", "ssd", "tolerations[0].key", "dedicated", "tolerations[0].operator", "Exists",
        "resources.limits.memory", "512Mi")), Deployment.class);
    var pod = deployment.getSpec().getTemplate().getSpec();
    var container = pod.getContainers().getFirst();
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
    assertThat(container.getImage()).isEqualTo("ghcr.io/etcd-operator-java/etcd-operator:dev");
    assertThat(container.getArgs()).contains("--watch-namespace=team-a,team-b", "--cluster-domain=example.org",
        "--etcd-image-repository=registry.internal/mirror/etcd",
        "--operator-image=ghcr.io/etcd-operator-java/etcd-operator:dev");
    assertThat(pod.getNodeSelector()).containsEntry("disk", "ssd");
    assertThat(pod.getTolerations()).extracting("key").containsExactly("dedicated");
    assertThat(container.getResources().getLimits().get("memory").toString()).isEqualTo("512Mi");
  }

  @Test
  void serviceMonitorOnlyWhenAsked() {
    assertThat(render(Map.of())).noneMatch(o -> o.getKind().equals("ServiceMonitor"));
    assertThat(render(Map.of("metrics.serviceMonitor.enabled", true)))
        .anyMatch(o -> o.getKind().equals("ServiceMonitor"));
  }

  @Test
  void neverTwoOperatorsWithoutLeaderElection() {
    assertThat(find(render(Map.of("leaderElection.enabled", false)), Deployment.class).getSpec().getStrategy())
        .satisfies(s -> assertThat(s.getType()).isEqualTo("Recreate"))
        .satisfies(s -> assertThat(s.getRollingUpdate()).isNull());
    assertThat(find(render(Map.of()), Deployment.class).getSpec().getStrategy().getType()).isEqualTo("RollingUpdate");
    assertThat(find(render(Map.of("replicaCount", 2)), Deployment.class).getSpec().getStrategy().getType())
        .isEqualTo("RollingUpdate");
  }

  @Test
  void severalReplicasNeedLeaderElection() {
    assertThatThrownBy(() -> render(Map.of("replicaCount", 2, "leaderElection.enabled", false)))
        .hasMessageContaining("needs leaderElection.enabled=true");
  }

  static List<HasMetadata> render(Map<String, Object> values) {
    var template = new Helm(CHART).template().withName("etcd-operator").withNamespace(NAMESPACE).skipCrds();
    values.forEach(template::set);
    String yaml = template.call();
    // one document unmarshals to one object, several to a list
    Object parsed = Serialization.unmarshal(yaml);
    if (parsed instanceof KubernetesList list) {
      return list.getItems();
    }
    return parsed instanceof List<?> list ? list.stream().map(HasMetadata.class::cast).toList()
        : List.of((HasMetadata) parsed);
  }

  static <T extends HasMetadata> T find(List<HasMetadata> objects, Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).findFirst()
        .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " rendered"));
  }

  static void compare(Path file, String rendered) throws IOException {
    if (Boolean.getBoolean("golden.update")) {
      Files.createDirectories(file.getParent());
      Files.writeString(file, rendered);
      fail("updated " + file + " (review the diff, then rerun without -Dgolden.update)");
    }
    if (!Files.exists(file)) {
      fail("no " + file + "; create it with -Dgolden.update=true and review it");
    }
    assertThat(rendered).as("%s is stale: rerun with -Dgolden.update=true and review the diff", file)
        .isEqualTo(Files.readString(file));
  }
}
