package io.etcdoperator.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClusterMetricsTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ClusterMetrics metrics = new ClusterMetrics(registry.getPrometheusRegistry());

    @Test
    void aCompletedPassSetsItsTimestamp() {
        metrics.record("team-a", "main", new ClusterMetrics.Counts(3, 3, 0, 2));
        assertThat(registry.scrape())
                .contains(
                        "etcd_operator_cluster_last_reconcile_success_timestamp_seconds{cluster=\"main\",namespace=\"team-a\"} 0.0");
        metrics.passed("team-a", "main", Instant.ofEpochSecond(1_700_000_000L));
        assertThat(registry.scrape())
                .contains(
                        "etcd_operator_cluster_last_reconcile_success_timestamp_seconds{cluster=\"main\",namespace=\"team-a\"} "
                                + "1.7E9");
    }

    @Test
    void aForgottenClusterLeavesNoSeriesAndOthersStay() {
        for (String name : new String[] {"gone", "kept"}) {
            metrics.record("team-a", name, new ClusterMetrics.Counts(3, 3, 0, 3));
            metrics.record("team-a", name, new ClusterMetrics.Space(1 << 20, 1 << 19, 2L << 30, 1));
            metrics.passed("team-a", name, Instant.ofEpochSecond(1_700_000_000L));
        }
        assertThat(registry.scrape()).contains("cluster=\"gone\"");

        metrics.forget("team-a", "gone");

        String scrape = registry.scrape();
        assertThat(scrape).doesNotContain("cluster=\"gone\"");
        assertThat(scrape.lines().filter(l -> l.startsWith("etcd_operator_cluster_") && l.contains("cluster=\"kept\"")))
                .hasSize(11);
        metrics.record("team-a", "gone", new ClusterMetrics.Counts(1, 1, 0, 1));
        assertThat(registry.scrape())
                .contains("etcd_operator_cluster_members{cluster=\"gone\",namespace=\"team-a\"} 1.0");
    }

    @Test
    void certificateTimesAreZeroWithoutOperatorIssuedTls() {
        metrics.certificates("team-a", "plain", Optional.empty(), Optional.empty());
        metrics.certificates(
                "team-a",
                "tls",
                Optional.of(Instant.ofEpochSecond(1_700_000_000L)),
                Optional.of(Instant.ofEpochSecond(1_800_000_000L)));
        assertThat(registry.scrape())
                .contains(
                        "etcd_operator_cluster_certificate_renewal_timestamp_seconds{cluster=\"plain\",namespace=\"team-a\"} 0.0",
                        "etcd_operator_cluster_certificate_expiry_timestamp_seconds{cluster=\"plain\",namespace=\"team-a\"} 0.0",
                        "etcd_operator_cluster_certificate_renewal_timestamp_seconds{cluster=\"tls\",namespace=\"team-a\"} 1.7E9",
                        "etcd_operator_cluster_certificate_expiry_timestamp_seconds{cluster=\"tls\",namespace=\"team-a\"} 1.8E9");
    }

    @Test
    void everySeriesOfAClusterCarriesThePrefixAndItsHelp() {
        metrics.record("team-a", "main", new ClusterMetrics.Counts(3, 3, 0, 3));
        OperatorMeters.bindTo(registry);
        String scrape = registry.scrape();
        assertThat(scrape.lines().filter(l -> l.contains("cluster=\"main\"")))
                .hasSize(11)
                .allSatisfy(l -> assertThat(l).startsWith(ClusterMetrics.PREFIX));
        assertThat(scrape)
                .contains(
                        "# HELP etcd_operator_cluster_voters voting members in etcd's member list",
                        "# TYPE etcd_operator_cluster_voters gauge",
                        "etcd_operator_cluster_ready_members{cluster=\"main\",namespace=\"team-a\"} 3.0");
    }

    @Test
    void withoutClustersThereIsNoSeries() {
        metrics.record("team-a", "main", new ClusterMetrics.Counts(3, 3, 0, 3));
        metrics.forget("team-a", "main");

        assertThat(registry.scrape()).doesNotContain(ClusterMetrics.PREFIX);
    }

    @Test
    void processAndJvmMetersAreBound() {
        OperatorMeters.bindTo(registry);
        assertThat(registry.scrape())
                .contains(
                        "jvm_memory_used_bytes{",
                        "jvm_threads_live_threads ",
                        "jvm_classes_loaded_classes ",
                        "process_cpu_usage ",
                        "process_uptime_seconds ",
                        "process_files_open_files ",
                        "system_cpu_count ");
    }
}
