package io.etcdoperator.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The Grafana dashboard: a ConfigMap for the sidecar only when asked, and no PromQL naming a metric nobody exports. */
class DashboardTest {

    /** What the operator exports (ours, JOSDK's, Micrometer's JVM and process meters) and etcd's own that we use. */
    static final Set<String> EXPORTED = Set.of(
            "etcd_operator_cluster_members",
            "etcd_operator_cluster_voters",
            "etcd_operator_cluster_learners",
            "etcd_operator_cluster_ready_members",
            "etcd_operator_cluster_db_size_bytes",
            "etcd_operator_cluster_db_size_in_use_bytes",
            "etcd_operator_cluster_quota_bytes",
            "etcd_operator_cluster_alarms",
            "etcd_operator_cluster_last_reconcile_success_timestamp_seconds",
            "etcd_operator_snapshot_schedule_last_success_timestamp_seconds",
            "etcd_operator_snapshot_schedule_last_failure_timestamp_seconds",
            "etcd_operator_snapshot_schedule_interval_seconds",
            "operator_sdk_reconciliations_started_total",
            "operator_sdk_reconciliations_failed_total",
            "jvm_memory_used_bytes",
            "jvm_memory_max_bytes",
            "process_cpu_usage",
            "system_cpu_count",
            "etcd_server_leader_changes_seen_total");

    /** PromQL words that look like names: functions, aggregations, keywords. */
    static final Set<String> PROMQL = Set.of(
            "sum",
            "count",
            "max",
            "min",
            "avg",
            "rate",
            "increase",
            "time",
            "vector",
            "by",
            "without",
            "on",
            "ignoring",
            "and",
            "or",
            "unless",
            "label_values");

    private static final Pattern STRING = Pattern.compile("\"[^\"]*\"");
    private static final Pattern NOT_NAMES = Pattern.compile("\\{[^}]*}|\\[[^]]*]|\\$\\w+");
    private static final Pattern GROUPING = Pattern.compile("\\b(by|without|on|ignoring)\\s*\\([^)]*\\)");
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    @Test
    void everyExpressionNamesOnlyExportedMetrics() throws IOException {
        JsonNode dashboard =
                new ObjectMapper().readTree(Files.readString(ChartTest.CHART.resolve("files/dashboard.json")));
        List<String> expressions = new ArrayList<>();
        dashboard.findValues("expr").forEach(e -> expressions.add(e.asText()));
        dashboard.findValues("definition").forEach(e -> expressions.add(e.asText()));
        assertThat(expressions).hasSizeGreaterThan(15);
        Set<String> used = new TreeSet<>();
        for (String expression : expressions) {
            Set<String> names = names(expression);
            assertThat(names).as("names in %s", expression).isNotEmpty();
            used.addAll(names);
        }
        assertThat(used).as("metric names the dashboard queries").isSubsetOf(EXPORTED);
        assertThat(used)
                .contains("etcd_operator_snapshot_schedule_last_success_timestamp_seconds", "jvm_memory_used_bytes");
    }

    @Test
    void theGuardCatchesATypo() {
        assertThat(names("sum by (pod) (rate(etcd_operator_cluster_votres{namespace=~\"$namespace\"}[5m])) > 0"))
                .containsExactly("etcd_operator_cluster_votres");
    }

    static Set<String> names(String expression) {
        String stripped = GROUPING.matcher(NOT_NAMES
                        .matcher(STRING.matcher(expression).replaceAll(""))
                        .replaceAll(" "))
                .replaceAll(" ");
        stripped = stripped.replaceAll("\\b\\d+(\\.\\d+)?\\b", " ").replaceAll("label_values\\(([^,]*),[^)]*\\)", "$1");
        Set<String> names = new TreeSet<>();
        Matcher m = NAME.matcher(stripped);
        while (m.find()) {
            if (!PROMQL.contains(m.group())) {
                names.add(m.group());
            }
        }
        return names;
    }

    @Test
    void configMapForTheGrafanaSidecarOnlyWhenAsked() throws IOException {
        assertThat(ChartTest.render(Map.of())).noneMatch(o -> o instanceof ConfigMap);
        ConfigMap dashboard = ChartTest.find(
                ChartTest.render(Map.of("dashboard.enabled", true, "dashboard.annotations.grafana_folder", "etcd")),
                ConfigMap.class);
        assertThat(dashboard.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
        assertThat(dashboard.getMetadata().getAnnotations()).containsEntry("grafana_folder", "etcd");
        assertThat(dashboard.getData().get("etcd-operator.json"))
                .isEqualTo(Files.readString(ChartTest.CHART.resolve("files/dashboard.json"))
                        .stripTrailing());
    }
}
