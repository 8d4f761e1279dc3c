package io.etcdoperator.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The chart as Helm 4 (hack/helm.sh's binary) lints and renders it: golden files pin the default and the namespaced rendering,
 * dist/install.yaml must be the current release manifest, and the CRDs and ClusterRole rules must be the ones in
 * config/.
 * {@code -Dgolden.update=true} rewrites the golden and dist/install.yaml and fails, so the diff is looked at.
 */
class ChartTest {

    static final Path MODULE = Path.of(System.getProperty("basedir", "charts"));
    static final Path CHART = MODULE.resolve("etcd-operator");
    static final Path ROOT = MODULE.toAbsolutePath().getParent();
    static final String NAMESPACE = "etcd-operator-system";

    @Test
    void lintsStrictly() {
        assertThat(HelmBinary.run(List.of("lint", "--strict", CHART.toString())))
                .contains("1 chart(s) linted, 0 chart(s) failed");
    }

    @Test
    void rendersTheGoldenManifest() throws IOException {
        compare(MODULE.resolve("src/test/resources/golden/default.yaml"), templateWithHooksAndNotes(Map.of()));
    }

    /** The other RBAC mode and the optional NetworkPolicies, with everything they render. */
    @Test
    void rendersTheGoldenNamespacedManifest() throws IOException {
        compare(MODULE.resolve("src/test/resources/golden/namespaced.yaml"), templateWithHooksAndNotes(NAMESPACED));
    }

    static final Map<String, Object> NAMESPACED = Map.of(
            "watchNamespaces[0]",
            "team-a",
            "watchNamespaces[1]",
            "team-b",
            "networkPolicy.operator.enabled",
            true,
            "networkPolicy.operator.from[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name",
            "monitoring",
            "networkPolicy.members.enabled",
            true,
            "networkPolicy.members.clientPodLabels.role",
            "etcd-client",
            "networkPolicy.members.metricsFrom[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name",
            "monitoring");

    /**
     * What `kubectl apply -f dist/install.yaml` installs: the namespace, then the default release with its CRDs. No
     * `helm test` Pod: without Helm it would run as an ordinary Pod.
     */
    @Test
    void distInstallManifestIsCurrent() throws IOException {
        String namespace = "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + NAMESPACE + "\n";
        String rendered = template(Map.of("tests.enabled", false));
        assertThat(rendered).contains("kind: \"CustomResourceDefinition\"").doesNotContain("helm.sh/hook");
        compare(
                ROOT.resolve("dist/install.yaml"),
                "# Rendered from charts/etcd-operator (tests.enabled=false) by ChartTest (-Dgolden.update=true); do not edit.\n"
                        + namespace + rendered);
    }

    /** files/crds is a byte copy of config/crd/bases; crds/ must not exist, or Helm would install the CRDs twice. */
    @Test
    void crdsAreTheGeneratedOnes() throws IOException {
        assertThat(CHART.resolve("crds"))
                .as("the CRDs are templates now (files/crds)")
                .doesNotExist();
        try (Stream<Path> bases = Files.list(ROOT.resolve("config/crd/bases"))) {
            List<Path> files = bases.sorted().toList();
            assertThat(files).isNotEmpty();
            for (Path base : files) {
                Path copy = CRDS.resolve(base.getFileName());
                assertThat(copy)
                        .as("copy config/crd/bases/%s to charts/etcd-operator/files/crds/", base.getFileName())
                        .exists();
                assertThat(Files.readString(copy))
                        .as("charts/etcd-operator/files/crds/%s is stale", base.getFileName())
                        .isEqualTo(Files.readString(base));
            }
            try (Stream<Path> copies = Files.list(CRDS)) {
                assertThat(copies.count())
                        .as("files/crds/ holds a CRD config/crd/bases lacks")
                        .isEqualTo(files.size());
            }
        }
    }

    static final Path CRDS = CHART.resolve("files/crds");

    /** Rendered CRDs are the files with only labels and the keep annotation added; both switches work. */
    @Test
    void crdsRenderAsTemplatesWithKeepAndInstallSwitches() throws IOException {
        List<CustomResourceDefinition> rendered = all(render(Map.of()), CustomResourceDefinition.class);
        try (Stream<Path> files = Files.list(CRDS)) {
            List<Path> copies = files.sorted().toList();
            assertThat(rendered).hasSize(copies.size());
            for (Path copy : copies) {
                CustomResourceDefinition file =
                        Serialization.unmarshal(Files.readString(copy), CustomResourceDefinition.class);
                CustomResourceDefinition crd = rendered.stream()
                        .filter(c -> c.getMetadata()
                                .getName()
                                .equals(file.getMetadata().getName()))
                        .findFirst()
                        .orElseThrow();
                assertThat(copy.getFileName().toString())
                        .as("the template skips a CRD by its file name")
                        .isEqualTo(crd.getMetadata().getName() + ".yaml");
                assertThat(crd.getSpec()).isEqualTo(file.getSpec());
                assertThat(crd.getMetadata().getAnnotations()).containsEntry("helm.sh/resource-policy", "keep");
                assertThat(crd.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "Helm");
            }
        }
        assertThat(all(render(Map.of("crds.keep", false)), CustomResourceDefinition.class))
                .hasSize(rendered.size())
                .allSatisfy(
                        crd -> assertThat(crd.getMetadata().getAnnotations()).isNullOrEmpty());
        assertThat(render(Map.of("crds.install", false)))
                .noneMatch(o -> o instanceof CustomResourceDefinition)
                .anyMatch(o -> o instanceof Deployment);
    }

    @Test
    void clusterRoleRulesAreConfigRbac() throws IOException {
        ClusterRole rendered = named(render(Map.of()), ClusterRole.class, "etcd-operator");
        assertThat(rendered.getRules()).isEqualTo(configRules());
        assertThat(named(render(Map.of()), ClusterRoleBinding.class, "etcd-operator")
                        .getRoleRef()
                        .getName())
                .isEqualTo("etcd-operator");
    }

    static List<PolicyRule> configRules() throws IOException {
        return Serialization.unmarshal(Files.readString(ROOT.resolve("config/rbac/role.yaml")), ClusterRole.class)
                .getRules();
    }

    /**
     * With watchNamespaces, a Role and RoleBinding per watched namespace; at cluster scope only what a Role cannot
     * grant (Nodes), and no binding to the full rules. Together they are exactly config/rbac/role.yaml.
     */
    @Test
    void watchNamespacesGetRolesAndOnlyNodesAtClusterScope() throws IOException {
        List<HasMetadata> objects = render(Map.of("watchNamespaces[0]", "team-a", "watchNamespaces[1]", "team-b"));
        List<Role> roles = all(objects, Role.class).stream()
                .filter(r -> r.getMetadata().getName().equals("etcd-operator"))
                .toList();
        assertThat(roles).extracting(r -> r.getMetadata().getNamespace()).containsExactly("team-a", "team-b");
        assertThat(all(objects, RoleBinding.class))
                .filteredOn(b -> b.getMetadata().getName().equals("etcd-operator"))
                .extracting(b -> b.getMetadata().getNamespace())
                .containsExactly("team-a", "team-b");
        assertThat(all(objects, RoleBinding.class)).allSatisfy(b -> {
            assertThat(b.getSubjects()).singleElement().satisfies(s -> {
                assertThat(s.getName()).isEqualTo("etcd-operator");
                assertThat(s.getNamespace()).isEqualTo(NAMESPACE);
            });
        });
        ClusterRole clusterScoped = named(objects, ClusterRole.class, "etcd-operator-cluster-scoped");
        assertThat(clusterScoped.getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getResources()).containsExactly("nodes");
            assertThat(rule.getVerbs()).containsExactly("get");
        });
        assertThat(all(objects, ClusterRoleBinding.class))
                .extracting(b -> b.getRoleRef().getName())
                .containsExactly("etcd-operator-cluster-scoped");
        assertThat(all(objects, ClusterRole.class))
                .extracting(r -> r.getMetadata().getName())
                .doesNotContain("etcd-operator");
        List<PolicyRule> union = new ArrayList<>(roles.getFirst().getRules());
        union.addAll(clusterScoped.getRules());
        assertThat(union).containsExactlyInAnyOrderElementsOf(configRules());
        assertThat(named(objects, Role.class, "etcd-operator-leader-election")
                        .getMetadata()
                        .getNamespace())
                .isEqualTo(NAMESPACE);
    }

    /** People get the etcd kinds through view/edit/admin; nobody but the operator writes a status. */
    @Test
    void aggregatedRolesExtendViewEditAndAdmin() {
        List<HasMetadata> objects = render(Map.of());
        ClusterRole view = named(objects, ClusterRole.class, "etcd-operator-view");
        assertThat(view.getMetadata().getLabels())
                .containsEntry("rbac.authorization.k8s.io/aggregate-to-view", "true")
                .doesNotContainKey("rbac.authorization.k8s.io/aggregate-to-edit");
        assertThat(view.getRules()).flatExtracting(PolicyRule::getVerbs).containsOnly("get", "list", "watch");
        assertThat(view.getRules())
                .flatExtracting(PolicyRule::getResources)
                .contains(
                        "etcdclusters",
                        "etcdmembers",
                        "etcdsnapshots",
                        "etcdsnapshotschedules",
                        "etcddefrags",
                        "etcddefragschedules");
        ClusterRole edit = named(objects, ClusterRole.class, "etcd-operator-edit");
        assertThat(edit.getMetadata().getLabels())
                .containsEntry("rbac.authorization.k8s.io/aggregate-to-edit", "true")
                .containsEntry("rbac.authorization.k8s.io/aggregate-to-admin", "true");
        assertThat(edit.getRules()).flatExtracting(PolicyRule::getResources).noneMatch(r -> r.contains("/"));
        assertThat(edit.getRules())
                .filteredOn(r -> r.getResources().contains("etcdclusters"))
                .singleElement()
                .satisfies(r -> assertThat(r.getVerbs()).contains("create", "update", "patch", "delete"));
        assertThat(edit.getRules())
                .filteredOn(r -> r.getResources().contains("etcdmembers"))
                .singleElement()
                .satisfies(r -> assertThat(r.getVerbs()).containsExactly("delete"));
        assertThat(all(render(Map.of("rbac.aggregatedRoles", false)), ClusterRole.class))
                .extracting(r -> r.getMetadata().getName())
                .containsExactly("etcd-operator");
    }

    /** A misspelt value fails with its name instead of being ignored; the defaults pass the schema. */
    @Test
    void schemaRefusesUnknownAndInvalidValues() {
        assertThat(render(Map.of())).anyMatch(o -> o instanceof Deployment);
        assertThatThrownBy(() -> render(Map.of("replicaCont", 1))).hasMessageContaining("replicaCont");
        assertThatThrownBy(() -> render(Map.of("metrics.serviceMonitor.enable", true)))
                .hasMessageContaining("enable");
        assertThatThrownBy(() -> render(Map.of("logLevel", "trace"))).hasMessageContaining("logLevel");
        assertThatThrownBy(() -> render(Map.of("logFormat", "xml"))).hasMessageContaining("logFormat");
        assertThatThrownBy(() -> render(Map.of("replicaCount", "two"))).hasMessageContaining("replicaCount");
    }

    @Test
    void everyValueOfValuesYamlIsInTheSchema() throws IOException {
        Map<String, Object> values = Serialization.unmarshal(Files.readString(CHART.resolve("values.yaml")), Map.class);
        Map<String, Object> schema =
                Serialization.unmarshal(Files.readString(CHART.resolve("values.schema.json")), Map.class);
        assertThat(schema).containsEntry("additionalProperties", false);
        assertCovered("", values, schema);
    }

    @SuppressWarnings("unchecked")
    static void assertCovered(String path, Map<String, Object> values, Map<String, Object> schema) {
        Map<String, Object> properties = (Map<String, Object>) schema.get("properties");
        if (properties == null) {
            return; // a Kubernetes object passed through, left open on purpose
        }
        for (Map.Entry<String, Object> entry : values.entrySet()) {
            assertThat(properties)
                    .as("values.schema.json lacks %s%s", path, entry.getKey())
                    .containsKey(entry.getKey());
            if (entry.getValue() instanceof Map<?, ?> nested && !nested.isEmpty()) {
                assertCovered(path + entry.getKey() + ".", (Map<String, Object>) nested, (Map<String, Object>)
                        properties.get(entry.getKey()));
            }
        }
    }

    @Test
    void logValuesBecomeFlags() {
        assertThat(find(render(Map.of()), Deployment.class)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getArgs())
                .contains("--log-format=text", "--log-level=info");
        assertThat(find(render(Map.of("logFormat", "json", "logLevel", "debug")), Deployment.class)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getArgs())
                .contains("--log-format=json", "--log-level=debug")
                .doesNotContain("--log-format=text");
    }

    /** Without a ServiceAccount of its own the operator would run as `default`, and its role bound to that. */
    @Test
    void ownServiceAccountOrANamedOne() {
        assertThatThrownBy(() -> render(Map.of("serviceAccount.create", false)))
                .hasMessageContaining("serviceAccount.create=false needs serviceAccount.name");
        List<HasMetadata> objects = render(Map.of("serviceAccount.create", false, "serviceAccount.name", "etcd-ops"));
        assertThat(objects).noneMatch(o -> o instanceof ServiceAccount);
        assertThat(find(objects, Deployment.class)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getServiceAccountName())
                .isEqualTo("etcd-ops");
        assertThat(named(objects, ClusterRoleBinding.class, "etcd-operator").getSubjects())
                .extracting("name")
                .containsExactly("etcd-ops");
    }

    /** Every namespaced or cluster-wide object the chart owns is named from fullnameOverride / nameOverride. */
    @Test
    void nameOverridesReachEveryObject() {
        List<HasMetadata> objects = render(Map.of(
                "fullnameOverride",
                "etcd-ops",
                "watchNamespaces[0]",
                "team-a",
                "networkPolicy.operator.enabled",
                true,
                "networkPolicy.members.enabled",
                true,
                "networkPolicy.members.clientPodLabels.role",
                "etcd-client",
                "metrics.serviceMonitor.enabled",
                true));
        assertThat(objects)
                .filteredOn(o -> !(o instanceof CustomResourceDefinition))
                .hasSizeGreaterThan(10)
                .allSatisfy(o ->
                        assertThat(o.getMetadata().getName()).as(o.getKind()).startsWith("etcd-ops"));
        List<HasMetadata> renamed = render(Map.of("nameOverride", "etcd-ctl"));
        assertThat(renamed)
                .filteredOn(o -> !(o instanceof CustomResourceDefinition))
                .allSatisfy(o ->
                        assertThat(o.getMetadata().getName()).as(o.getKind()).startsWith("etcd-operator-etcd-ctl"));
        Deployment deployment = find(renamed, Deployment.class);
        assertThat(deployment.getSpec().getSelector().getMatchLabels())
                .containsEntry("app.kubernetes.io/name", "etcd-ctl");
    }

    /** `helm test` reaches /metrics through the Service, i.e. a Pod that passed /readyz. */
    @Test
    void helmTestFetchesMetricsThroughTheService() throws IOException {
        Pod test = find(parse(templateWithHooksAndNotes(Map.of())), Pod.class);
        assertThat(test.getMetadata().getAnnotations()).containsEntry("helm.sh/hook", "test");
        assertThat(test.getSpec().getContainers().getFirst().getCommand())
                .contains("http://etcd-operator-metrics." + NAMESPACE + ".svc:8080/metrics");
        assertThat(test.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(parse(templateWithHooksAndNotes(Map.of("metrics.service.enabled", false))))
                .noneMatch(o -> o instanceof Pod);
        assertThat(parse(templateWithHooksAndNotes(Map.of("tests.enabled", false))))
                .noneMatch(o -> o instanceof Pod);
    }

    @Test
    void networkPoliciesOnlyWhenAskedAndMembersNeedANamespace() {
        assertThat(render(Map.of())).noneMatch(o -> o instanceof NetworkPolicy);
        assertThatThrownBy(() -> render(Map.of(
                        "networkPolicy.members.enabled",
                        true,
                        "networkPolicy.members.clientPodLabels.role",
                        "etcd-client")))
                .hasMessageContaining("networkPolicy.members.namespaces");
        List<NetworkPolicy> policies = all(render(NAMESPACED), NetworkPolicy.class);
        NetworkPolicy operator = policies.stream()
                .filter(p -> p.getMetadata().getNamespace().equals(NAMESPACE))
                .findFirst()
                .orElseThrow();
        assertThat(operator.getSpec().getIngress()).singleElement().satisfies(rule -> {
            assertThat(rule.getPorts()).extracting(p -> p.getPort().getIntVal()).containsExactly(8080, 8081);
            assertThat(rule.getFrom())
                    .singleElement()
                    .satisfies(peer -> assertThat(peer.getNamespaceSelector().getMatchLabels())
                            .containsEntry("kubernetes.io/metadata.name", "monitoring"));
        });
        List<NetworkPolicy> members = policies.stream()
                .filter(p -> p.getMetadata().getName().endsWith("-members"))
                .toList();
        assertThat(members).extracting(p -> p.getMetadata().getNamespace()).containsExactly("team-a", "team-b");
        var ingress = members.getFirst().getSpec().getIngress();
        assertThat(ingress)
                .extracting(r -> r.getPorts().getFirst().getPort().getIntVal())
                .containsExactly(2379, 2380, 2381);
        assertThat(ingress.getFirst().getFrom())
                .anySatisfy(peer -> assertThat(peer.getPodSelector().getMatchLabels())
                        .containsExactly(Map.entry("role", "etcd-client")));
        assertThat(ingress.get(1).getFrom())
                .singleElement()
                .satisfies(peer -> assertThat(peer.getPodSelector().getMatchLabels())
                        .containsEntry("app.kubernetes.io/name", "etcd"));
        assertThatThrownBy(() -> render(Map.of("watchNamespaces[0]", "team-a", "networkPolicy.members.enabled", true)))
                .hasMessageContaining("clientPodLabels");
    }

    /**
     * NOTES.txt must work from a packaged chart: a heredoc to create a cluster and the docs' address, no path of this
     * repository. The chart must also package.
     */
    @Test
    void notesNeedNoRepositoryFiles() throws IOException {
        Path out = MODULE.toAbsolutePath().resolve("target/package");
        Files.createDirectories(out);
        HelmBinary.run(List.of("package", CHART.toString(), "--destination", out.toString()));
        assertThat(out.resolve("etcd-operator-0.1.0.tgz")).exists();
        String notes = notes(Map.of());
        assertThat(notes)
                .contains(
                        "kubectl apply -f - <<'YAML'",
                        "kind: EtcdCluster",
                        "\n  YAML\n",
                        "https://github.com/etcd-operator-java/etcd-operator/tree/main/docs",
                        "helm test etcd-operator")
                .doesNotContain("config/samples", "charts/etcd-operator", "<no value>");
        assertThat(notes(Map.of("watchNamespaces[0]", "team-a"))).contains("kubectl apply -n team-a -f -");
    }

    static String notes(Map<String, Object> values) throws IOException {
        String rendered = templateWithHooksAndNotes(values);
        return rendered.substring(rendered.indexOf(NOTES_HEADER) + NOTES_HEADER.length())
                        .lines()
                        .map(line -> line.startsWith("# ") ? line.substring(2) : "")
                        .collect(Collectors.joining("\n"))
                + "\n";
    }

    static final String NOTES_HEADER = "---\n# NOTES.txt, as `helm install` prints it:\n";

    /**
     * `helm template --skip-tests` leaves out the `helm test` Pod and any template leaves out NOTES.txt. A copy of the chart under
     * target/ renders both through `tpl`, with the same values and helpers, into a ConfigMap (a document carrying the
     * hook annotation would be left out again); they are appended here: the hooks as the documents Helm would create,
     * the NOTES as comments.
     */
    @SuppressWarnings("unchecked")
    static String templateWithHooksAndNotes(Map<String, Object> values) throws IOException {
        Path copy = MODULE.toAbsolutePath().resolve("target/chart-with-hooks/etcd-operator");
        if (Files.exists(copy)) {
            try (Stream<Path> old = Files.walk(copy)) {
                for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        try (Stream<Path> files = Files.walk(CHART)) {
            for (Path source : files.toList()) {
                Path target = copy.resolve(CHART.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
        Files.move(copy.resolve("templates/tests"), copy.resolve("hooks-src"));
        Files.createDirectories(copy.resolve("notes-src"));
        Files.move(copy.resolve("templates/NOTES.txt"), copy.resolve("notes-src/NOTES.txt"));
        Files.writeString(copy.resolve("templates/zz-hooks-and-notes.yaml"), """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: rendered-hooks-and-notes
        data:
          NOTES.txt: {{ tpl ($.Files.Get "notes-src/NOTES.txt") $ | quote }}
          {{- range $path, $_ := .Files.Glob "hooks-src/*.yaml" }}
          {{ base $path }}: {{ tpl ($.Files.Get $path) $ | quote }}
          {{- end }}
        """);
        String marker = "---\n# Source: etcd-operator/templates/zz-hooks-and-notes.yaml\n";
        String rendered = HelmBinary.template(copy, "etcd-operator", NAMESPACE, values);
        int start = rendered.indexOf(marker);
        int end = rendered.indexOf("\n---\n", start + marker.length());
        String document = rendered.substring(start + marker.length(), end < 0 ? rendered.length() : end + 1);
        StringBuilder out =
                new StringBuilder(rendered.substring(0, start)).append(end < 0 ? "" : rendered.substring(end + 1));
        Map<String, String> data =
                Serialization.unmarshal(document, ConfigMap.class).getData();
        data.entrySet().stream()
                .filter(e -> !e.getKey().equals("NOTES.txt") && !e.getValue().isBlank())
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> out.append("---\n# Source: etcd-operator/templates/tests/")
                        .append(e.getKey())
                        .append('\n')
                        .append(e.getValue().strip())
                        .append('\n'));
        out.append(NOTES_HEADER);
        data.get("NOTES.txt")
                .strip()
                .lines()
                .forEach(line -> out.append(line.isEmpty() ? "#" : "# " + line).append('\n'));
        return out.toString();
    }

    @Test
    void deploymentRunsWithLeaderElectionProbesAndRestrictedSecurity() {
        Deployment deployment = find(render(Map.of()), Deployment.class);
        var pod = deployment.getSpec().getTemplate().getSpec();
        var container = pod.getContainers().getFirst();
        assertThat(container.getArgs())
                .contains(
                        "--leader-elect",
                        "--metrics-bind-address=:8080",
                        "--health-probe-bind-address=:8081",
                        "--operator-image=ghcr.io/etcd-operator-java/etcd-operator:0.1.0",
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
        Deployment deployment = find(
                render(Map.of(
                        "replicaCount",
                        2,
                        "watchNamespaces[0]",
                        "team-a",
                        "watchNamespaces[1]",
                        "team-b",
                        "extraArgs[0]",
                        "--cluster-domain=example.org",
                        "etcdImage.repository",
                        "registry.internal/mirror/etcd",
                        "image.tag",
                        "dev",
                        "nodeSelector.disk",
                        "ssd",
                        "tolerations[0].key",
                        "dedicated",
                        "tolerations[0].operator",
                        "Exists",
                        "resources.limits.memory",
                        "512Mi")),
                Deployment.class);
        var pod = deployment.getSpec().getTemplate().getSpec();
        var container = pod.getContainers().getFirst();
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
        assertThat(container.getImage()).isEqualTo("ghcr.io/etcd-operator-java/etcd-operator:dev");
        assertThat(container.getArgs())
                .contains(
                        "--watch-namespace=team-a,team-b",
                        "--cluster-domain=example.org",
                        "--etcd-image-repository=registry.internal/mirror/etcd",
                        "--operator-image=ghcr.io/etcd-operator-java/etcd-operator:dev");
        assertThat(pod.getNodeSelector()).containsEntry("disk", "ssd");
        assertThat(pod.getTolerations()).extracting("key").containsExactly("dedicated");
        assertThat(container.getResources().getLimits().get("memory").toString())
                .isEqualTo("512Mi");
    }

    @Test
    void serviceMonitorOnlyWhenAsked() {
        assertThat(render(Map.of())).noneMatch(o -> o.getKind().equals("ServiceMonitor"));
        assertThat(render(Map.of("metrics.serviceMonitor.enabled", true)))
                .anyMatch(o -> o.getKind().equals("ServiceMonitor"));
    }

    @Test
    void neverTwoOperatorsWithoutLeaderElection() {
        assertThat(find(render(Map.of("leaderElection.enabled", false)), Deployment.class)
                        .getSpec()
                        .getStrategy())
                .satisfies(s -> assertThat(s.getType()).isEqualTo("Recreate"))
                .satisfies(s -> assertThat(s.getRollingUpdate()).isNull());
        assertThat(find(render(Map.of()), Deployment.class)
                        .getSpec()
                        .getStrategy()
                        .getType())
                .isEqualTo("RollingUpdate");
        assertThat(find(render(Map.of("replicaCount", 2)), Deployment.class)
                        .getSpec()
                        .getStrategy()
                        .getType())
                .isEqualTo("RollingUpdate");
    }

    @Test
    void severalReplicasNeedLeaderElection() {
        assertThatThrownBy(() -> render(Map.of("replicaCount", 2, "leaderElection.enabled", false)))
                .hasMessageContaining("needs leaderElection.enabled=true");
    }

    static String template(Map<String, Object> values) {
        return HelmBinary.template(CHART, "etcd-operator", NAMESPACE, values);
    }

    static List<HasMetadata> render(Map<String, Object> values) {
        return parse(template(values));
    }

    static List<HasMetadata> parse(String yaml) {
        // one document unmarshals to one object, several to a list
        Object parsed = Serialization.unmarshal(yaml);
        if (parsed instanceof KubernetesList list) {
            return list.getItems();
        }
        return parsed instanceof List<?> list
                ? list.stream().map(HasMetadata.class::cast).toList()
                : List.of((HasMetadata) parsed);
    }

    static <T extends HasMetadata> T find(List<HasMetadata> objects, Class<T> type) {
        return objects.stream()
                .filter(type::isInstance)
                .map(type::cast)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " rendered"));
    }

    static <T extends HasMetadata> List<T> all(List<HasMetadata> objects, Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    static <T extends HasMetadata> T named(List<HasMetadata> objects, Class<T> type, String name) {
        return all(objects, type).stream()
                .filter(o -> o.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name + " rendered"));
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
        assertThat(rendered)
                .as("%s is stale: rerun with -Dgolden.update=true and review the diff", file)
                .isEqualTo(Files.readString(file));
    }
}
