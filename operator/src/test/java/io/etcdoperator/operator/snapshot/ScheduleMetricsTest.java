package io.etcdoperator.operator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ScheduleMetricsTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ScheduleMetrics metrics = new ScheduleMetrics(registry);

    @Test
    void seriesCarryTheOperatorPrefixAndTheInterval() {
        metrics.record(
                "team-a",
                "hourly",
                new ScheduleMetrics.Progress(
                        Optional.of(Instant.ofEpochSecond(1_000)), Optional.empty(), Duration.ofHours(1)));
        assertThat(registry.scrape())
                .contains(
                        "etcd_operator_snapshot_schedule_last_success_timestamp_seconds{namespace=\"team-a\",schedule=\"hourly\"} "
                                + "1000.0",
                        "etcd_operator_snapshot_schedule_last_failure_timestamp_seconds{namespace=\"team-a\",schedule=\"hourly\"} 0.0",
                        "etcd_operator_snapshot_schedule_interval_seconds{namespace=\"team-a\",schedule=\"hourly\"} 3600.0")
                .doesNotContain("\netcd_snapshot_");
    }

    @Test
    void aForgottenScheduleLeavesNoSeries() {
        var progress = new ScheduleMetrics.Progress(Optional.empty(), Optional.empty(), Duration.ofHours(1));
        metrics.record("team-a", "hourly", progress);
        metrics.record("team-a", "daily", progress);
        metrics.forget("team-a", "hourly");
        assertThat(registry.scrape()).doesNotContain("schedule=\"hourly\"").contains("schedule=\"daily\"");
    }
}
