package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 26: a real Prometheus (Debian's /usr/bin/prometheus, on loopback) scrapes the chart's operator Pod where the
 * chart's ServiceMonitor would (its Service's port, path and honorLabels) and a member's metrics port, and loads the
 * chart's PrometheusRule as rendered by helm. Every metric the rules and the dashboard name must be in its storage,
 * with the labels they select on, the rule groups must evaluate without error, a schedule whose newest snapshot is
 * old must fire EtcdSnapshotTooOld, and a frozen member must set off EtcdClusterMemberDown (pending) until it thaws.
 */
@ExtendWith(LocalKubernetesExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PrometheusE2EIT {

    private static final String NS = "prometheus";
    private static final String CLUSTER = "metered";
    private static final String SCHEDULE = "metered-nightly";
    private static final Duration SCRAPED = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<GenericKubernetesResource> chart;
    private static PrometheusProcess prometheus;

    @BeforeAll
    static void scrapeTheOperatorAndAMember(E2eEnvironment env) throws Exception {
        assumeTrue(
                Files.isExecutable(PrometheusProcess.BINARY) || System.getenv("CI") != null,
                "no /usr/bin/prometheus (apt-get install prometheus; hack/test.sh does); skipped outside CI");
        assumeTrue(env.operatorFromImage(), "scrapes the operator as the chart deploys it (not -De2e.operator=host)");
        env.namespace(NS);
        env.createCluster(
                NS,
                CLUSTER,
                Map.of("replicas", 1, "version", "3.5.16", "storage", Map.of("size", "256Mi", "medium", "Memory")));
        createSchedule(env);
        chart = render(env);
        env.awaitReady(NS, CLUSTER, 1, Duration.ofMinutes(3));
        long formed = env.sinceCreated(NS, CLUSTER).toSeconds();
        Instant started = Instant.now();
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "prometheus-");
        prometheus = PrometheusProcess.start(
                dir,
                config(env),
                Map.of(
                        "rules.yaml",
                        env.client()
                                .getKubernetesSerialization()
                                .asYaml(only("PrometheusRule")
                                        .getAdditionalProperties()
                                        .get("spec"))));
        System.out.printf(
                "prometheus: %s READY=1 within %d s of its creation; Prometheus ready %d ms after its start "
                        + "(%s)%n",
                CLUSTER, formed, Duration.between(started, Instant.now()).toMillis(), dir);
    }

    @AfterAll
    static void stopPrometheus() {
        if (prometheus != null) {
            prometheus.close();
        }
    }

    @Test
    @Order(1)
    void theOperatorAndTheMemberAreUp() {
        Await.until("both targets scraped and up (log " + prometheus.log() + ")", SCRAPED, () -> {
            JsonNode targets = prometheus.activeTargets();
            return targets.size() == 2
                    && StreamSupport.stream(targets.spliterator(), false)
                            .allMatch(t -> "up".equals(t.path("health").asText()));
        });
        JsonNode up = prometheus.query("up == 1");
        assertThat(labelValues(up, "job"))
                .as("targets with up == 1")
                .containsExactlyInAnyOrder("etcd-operator", "etcd-members");
        System.out.printf("prometheus: %d targets up%n", up.size());
    }

    /** A name the rules or dashboard read that nobody exports leaves an alert silent or a panel empty for good. */
    @Test
    @Order(2)
    void everyMetricTheChartsRulesAndDashboardReadIsScraped() {
        Set<String> names = new TreeSet<>(
                ruleExpressions().stream().flatMap(e -> metricNames(e).stream()).toList());
        dashboardExpressions().forEach(e -> names.addAll(metricNames(e)));
        assertThat(names)
                .as("names the chart reads")
                .hasSizeGreaterThan(15)
                .contains("etcd_server_leader_changes_seen_total");
        String regex = String.join("|", names);
        Set<String> stored = Await.value("every name the chart reads in Prometheus", SCRAPED, () -> {
            Set<String> present =
                    labelValues(prometheus.query("count by (__name__) ({__name__=~\"" + regex + "\"})"), "__name__");
            Set<String> missing = new TreeSet<>(names);
            missing.removeAll(present);
            missing.removeAll(COUNTED_FROM_FIRST_FAILURE);
            if (!missing.isEmpty()) {
                throw new IllegalStateException("not stored: " + missing);
            }
            return Optional.of(present);
        });
        System.out.printf(
                "prometheus: %d of the %d metric names the chart's rules and dashboard read are stored "
                        + "(absent: %s)%n",
                stored.size(),
                names.size(),
                names.stream().filter(n -> !stored.contains(n)).toList());
        assertOurSeriesCarryTheirLabels(names);
        assertPanelsDrawZeroBeforeTheFirstFailure();
    }

    /**
     * JOSDK registers this counter at the first failed reconciliation, so a healthy operator has no such series; the
     * alert on it then stays silent, as it should.
     */
    private static final Set<String> COUNTED_FROM_FIRST_FAILURE = Set.of("operator_sdk_reconciliations_failed_total");

    /** The dashboard's queries of such a counter still return a value (0), not "No data". */
    private static void assertPanelsDrawZeroBeforeTheFirstFailure() {
        List<String> panels = dashboardExpressions().stream()
                .filter(e -> metricNames(e).stream().anyMatch(COUNTED_FROM_FIRST_FAILURE::contains))
                .toList();
        assertThat(panels)
                .isNotEmpty()
                .allSatisfy(
                        e -> assertThat(prometheus.query(e.replace("$job", ".*").replace("$namespace", ".*")))
                                .as("dashboard query %s", e)
                                .isNotEmpty());
    }

    /** Per-object series carry the labels the alerts print and the dashboard filters on; the JVM's carry pod. */
    private static void assertOurSeriesCarryTheirLabels(Set<String> names) {
        int checked = 0;
        for (String name : names) {
            String selector = name.startsWith("etcd_operator_cluster_")
                    ? "{namespace=\"" + NS + "\",cluster=\"" + CLUSTER + "\"}"
                    : name.startsWith("etcd_operator_snapshot_schedule_")
                            ? "{namespace=\"" + NS + "\",schedule=\"" + SCHEDULE + "\"}"
                            : null;
            if (selector != null) {
                assertThat(prometheus.query(name + selector))
                        .as("%s%s", name, selector)
                        .hasSize(1);
                checked++;
            }
        }
        assertThat(value("etcd_operator_cluster_ready_members{cluster=\"" + CLUSTER + "\"}"))
                .isEqualTo(1);
        assertThat(value("etcd_operator_cluster_voters{cluster=\"" + CLUSTER + "\"}"))
                .isEqualTo(1);
        assertThat(value("etcd_operator_snapshot_schedule_interval_seconds{schedule=\"" + SCHEDULE + "\"}"))
                .as("a daily schedule's longest wait")
                .isEqualTo(86_400);
        assertThat(labelValues(prometheus.query("jvm_memory_used_bytes{area=\"heap\"}"), "pod"))
                .as("the dashboard's heap panel sums by pod")
                .singleElement(InstanceOfAssertFactories.STRING)
                .startsWith("etcd-operator-");
        System.out.printf("prometheus: %d per-object series carry namespace and cluster or schedule%n", checked);
    }

    @Test
    @Order(3)
    void theChartsRuleGroupsLoadAndEvaluateWithoutError() {
        List<String> rendered = groupNames();
        Await.until("every rule of " + rendered + " evaluated", SCRAPED, () -> {
            List<String> unevaluated = rules().filter(
                            r -> "unknown".equals(r.path("health").asText()))
                    .map(r -> r.path("name").asText())
                    .toList();
            if (!unevaluated.isEmpty()
                    || !Set.copyOf(groupNames(prometheus.ruleGroups())).equals(Set.copyOf(rendered))) {
                throw new IllegalStateException(
                        "groups " + groupNames(prometheus.ruleGroups()) + ", not evaluated yet: " + unevaluated);
            }
            return true;
        });
        assertThat(rules().toList())
                .as("alerting rules loaded")
                .hasSize(ruleExpressions().size())
                .allSatisfy(r -> {
                    assertThat(r.path("health").asText())
                            .as("%s health", r.path("name").asText())
                            .isEqualTo("ok");
                    assertThat(r.path("lastError").asText(""))
                            .as("%s lastError", r.path("name").asText())
                            .isEmpty();
                });
        System.out.printf("prometheus: %d rule groups, %d rules healthy%n", rendered.size(), rules().count());
    }

    /**
     * A schedule whose newest snapshot is three days old, as after an outage (its status says so; a spec change makes
     * the operator look again, a status write does not): the gauges carry it on that pass and EtcdSnapshotTooOld,
     * which has no `for`, fires.
     */
    @Test
    @Order(4)
    @SuppressWarnings("unchecked")
    void aScheduleWhoseNewestSnapshotIsOldSetsOffSnapshotTooOld(E2eEnvironment env) {
        var schedule = env.client()
                .genericKubernetesResources("etcd-operator.cozystack.io/v1alpha2", "EtcdSnapshotSchedule")
                .inNamespace(NS)
                .withName(SCHEDULE);
        GenericKubernetesResource current = schedule.get();
        Map<String, Object> status = new LinkedHashMap<>(
                current.getAdditionalProperties().get("status") instanceof Map<?, ?> m
                        ? (Map<String, Object>) m
                        : Map.of());
        String threeDaysAgo = Instant.now()
                .minus(Duration.ofDays(3))
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();
        status.put("lastSuccessfulTime", threeDaysAgo);
        current.setAdditionalProperty("status", status);
        env.client()
                .genericKubernetesResources("etcd-operator.cozystack.io/v1alpha2", "EtcdSnapshotSchedule")
                .inNamespace(NS)
                .resource(current)
                .updateStatus();
        Instant changed = Instant.now();
        schedule.edit(s -> {
            ((Map<String, Object>) s.getAdditionalProperties().get("spec")).put("schedule", "45 2 * * *");
            return s;
        });
        Await.until(
                "EtcdSnapshotTooOld firing for " + SCHEDULE,
                SCRAPED,
                () -> alert("EtcdSnapshotTooOld", "schedule", SCHEDULE)
                        .filter(a -> "firing".equals(a.path("state").asText()))
                        .isPresent());
        System.out.printf(
                "prometheus: EtcdSnapshotTooOld firing %d s after the schedule's change (newest snapshot %s)%n",
                Duration.between(changed, Instant.now()).toSeconds(), threeDaysAgo);
    }

    /**
     * A frozen member fails its readiness probe: the alert goes pending (its 10 minutes of `for` are not waited). Last,
     * as it takes the member down for a while.
     */
    @Test
    @Order(5)
    void aFrozenMemberSetsOffMemberDownUntilItThaws(E2eEnvironment env) {
        String member = env.memberPods(NS, CLUSTER).getFirst().getMetadata().getName();
        Instant frozen = Instant.now();
        env.kube().faults().freeze(NS, member);
        Duration pending;
        try {
            Await.until(
                    "EtcdClusterMemberDown pending for " + CLUSTER,
                    SCRAPED,
                    () -> memberDown()
                            .filter(a -> "pending".equals(a.path("state").asText()))
                            .isPresent());
            pending = Duration.between(frozen, Instant.now());
        } finally {
            env.kube().faults().thaw(NS, member);
        }
        Instant thawed = Instant.now();
        Await.until(
                "EtcdClusterMemberDown resolved", SCRAPED, () -> memberDown().isEmpty());
        System.out.printf(
                "prometheus: EtcdClusterMemberDown pending %d s after the freeze, resolved %d s after the " + "thaw%n",
                pending.toSeconds(), Duration.between(thawed, Instant.now()).toSeconds());
        env.awaitReady(NS, CLUSTER, 1, Duration.ofMinutes(1));
    }

    private static Optional<JsonNode> memberDown() {
        return alert("EtcdClusterMemberDown", "cluster", CLUSTER);
    }

    /** The alert {@code name} of namespace {@value #NS} whose label {@code label} is {@code value}, if active. */
    private static Optional<JsonNode> alert(String name, String label, String value) {
        return StreamSupport.stream(prometheus.alerts().spliterator(), false)
                .filter(a -> name.equals(a.path("labels").path("alertname").asText())
                        && NS.equals(a.path("labels").path("namespace").asText())
                        && value.equals(a.path("labels").path(label).asText()))
                .findFirst();
    }

    /** A daily schedule: its gauges exist after its first pass, and it fires at 02:30 UTC only (never in a run). */
    private static void createSchedule(E2eEnvironment env) {
        GenericKubernetesResource schedule = new GenericKubernetesResource();
        schedule.setApiVersion("etcd-operator.cozystack.io/v1alpha2");
        schedule.setKind("EtcdSnapshotSchedule");
        schedule.setMetadata(
                new ObjectMetaBuilder().withName(SCHEDULE).withNamespace(NS).build());
        schedule.setAdditionalProperty(
                "spec",
                Map.of(
                        "clusterRef",
                        Map.of("name", CLUSTER),
                        "schedule",
                        "30 2 * * *",
                        "destination",
                        Map.of("pvc", Map.of("claimName", "backups"))));
        env.client()
                .genericKubernetesResources("etcd-operator.cozystack.io/v1alpha2", "EtcdSnapshotSchedule")
                .inNamespace(NS)
                .resource(schedule)
                .create();
    }

    /** The chart's ServiceMonitor, PrometheusRule and dashboard ConfigMap, by the helm that installed the operator. */
    private static List<GenericKubernetesResource> render(E2eEnvironment env) throws Exception {
        String manifest = E2eEnvironment.helmTemplate(List.of(
                "--set",
                "crds.install=false",
                "--set",
                "metrics.serviceMonitor.enabled=true",
                "--set",
                "prometheusRule.enabled=true",
                "--set",
                "dashboard.enabled=true"));
        List<GenericKubernetesResource> objects = new ArrayList<>();
        for (String document : manifest.split("(?m)^---\\s*$")) {
            if (document.contains("kind:")) {
                objects.add(
                        env.client().getKubernetesSerialization().unmarshal(document, GenericKubernetesResource.class));
            }
        }
        return objects;
    }

    private static GenericKubernetesResource only(String kind) {
        List<GenericKubernetesResource> found =
                chart.stream().filter(o -> kind.equals(o.getKind())).toList();
        assertThat(found).as("rendered %s", kind).hasSize(1);
        return found.getFirst();
    }

    /**
     * Prometheus' configuration: the operator as prometheus-operator would scrape it from the ServiceMonitor, and the
     * member's metrics port with the namespace and pod labels a PodMonitor would give it.
     */
    @SuppressWarnings("unchecked")
    private static String config(E2eEnvironment env) {
        Map<String, Object> spec = (Map<String, Object>)
                only("ServiceMonitor").getAdditionalProperties().get("spec");
        Map<String, Object> endpoint = ((List<Map<String, Object>>) spec.get("endpoints")).getFirst();
        Map<String, String> selector =
                (Map<String, String>) ((Map<String, Object>) spec.get("selector")).get("matchLabels");
        Pod operator = ((OperatorPod) env.operator()).pods().getFirst();
        Pod member = env.memberPods(NS, CLUSTER).getFirst();
        return """
        global: {scrape_interval: 2s, scrape_timeout: 2s, evaluation_interval: 2s}
        rule_files: [rules.yaml]
        scrape_configs:
        - job_name: etcd-operator
          metrics_path: %s
          honor_labels: %s
          static_configs:
          - targets: ['%s']
            labels: {namespace: %s, pod: %s}
        - job_name: etcd-members
          static_configs:
          - targets: ['%s:2381']
            labels: {namespace: %s, pod: %s}
        """.formatted(
                        endpoint.get("path"),
                        endpoint.get("honorLabels"),
                        operatorTarget(env, (String) endpoint.get("port"), selector, operator),
                        OperatorPod.NAMESPACE,
                        operator.getMetadata().getName(),
                        member.getStatus().getPodIP(),
                        NS,
                        member.getMetadata().getName());
    }

    /** The ServiceMonitor's port name through the deployed Service it selects to the Pod's address and port. */
    private static String operatorTarget(E2eEnvironment env, String portName, Map<String, String> selector, Pod pod) {
        List<Service> services =
                env
                        .client()
                        .services()
                        .inNamespace(OperatorPod.NAMESPACE)
                        .withLabels(selector)
                        .list()
                        .getItems()
                        .stream()
                        .filter(s -> s.getSpec().getPorts().stream().anyMatch(p -> portName.equals(p.getName())))
                        .toList();
        assertThat(services)
                .as("deployed Services the ServiceMonitor selects, with port %s", portName)
                .hasSize(1);
        assertThat(pod.getMetadata().getLabels())
                .as("the Service selects the operator Pod")
                .containsAllEntriesOf(services.getFirst().getSpec().getSelector());
        ServicePort port = services.getFirst().getSpec().getPorts().stream()
                .filter(p -> portName.equals(p.getName()))
                .findFirst()
                .orElseThrow();
        IntOrString target = port.getTargetPort();
        int number = target.getIntVal() != null
                ? target.getIntVal()
                : pod.getSpec().getContainers().stream()
                        .flatMap(c -> c.getPorts().stream())
                        .filter(p -> target.getStrVal().equals(p.getName()))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no container port named " + target.getStrVal()))
                        .getContainerPort();
        return pod.getStatus().getPodIP() + ":" + number;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> renderedGroups() {
        return (List<Map<String, Object>>) ((Map<String, Object>)
                        only("PrometheusRule").getAdditionalProperties().get("spec"))
                .get("groups");
    }

    private static List<String> groupNames() {
        return renderedGroups().stream().map(g -> (String) g.get("name")).toList();
    }

    private static List<String> groupNames(JsonNode groups) {
        return StreamSupport.stream(groups.spliterator(), false)
                .map(g -> g.path("name").asText())
                .toList();
    }

    @SuppressWarnings("unchecked")
    private static List<String> ruleExpressions() {
        return renderedGroups().stream()
                .flatMap(g -> ((List<Map<String, Object>>) g.get("rules")).stream())
                .map(r -> (String) r.get("expr"))
                .toList();
    }

    private static List<String> dashboardExpressions() {
        try {
            JsonNode dashboard = JSON.readTree(
                    ((Map<?, ?>) only("ConfigMap").getAdditionalProperties().get("data"))
                            .get("etcd-operator.json")
                            .toString());
            List<String> expressions = new ArrayList<>();
            dashboard.findValues("expr").forEach(e -> expressions.add(e.asText()));
            dashboard.findValues("definition").forEach(e -> expressions.add(e.asText()));
            return expressions;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Stream<JsonNode> rules() {
        return StreamSupport.stream(prometheus.ruleGroups().spliterator(), false)
                .flatMap(g -> StreamSupport.stream(g.path("rules").spliterator(), false));
    }

    private static final Set<String> PROMQL_WORDS = Set.of("and", "or", "unless", "bool", "offset");
    private static final Pattern IDENTIFIER = Pattern.compile("\\b([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");

    /** Names in a PromQL expression once strings, matchers, ranges, groupings, functions and keywords are gone. */
    static Set<String> metricNames(String expression) {
        String bare = expression
                .replaceAll("\"[^\"]*\"", "")
                .replaceAll("\\{[^}]*}|\\[[^]]*]|\\$\\w+", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")
                .replaceAll("label_values\\(([^,)]*)[^)]*\\)", "$1");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(bare);
        while (m.find()) {
            if (m.group(2) == null && !PROMQL_WORDS.contains(m.group(1))) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    private static double value(String promql) {
        JsonNode result = prometheus.query(promql);
        assertThat(result).as(promql).hasSize(1);
        return result.get(0).path("value").get(1).asDouble();
    }

    private static Set<String> labelValues(JsonNode result, String label) {
        Set<String> values = new TreeSet<>();
        result.forEach(series -> values.add(series.path("metric").path(label).asText()));
        return values;
    }
}
