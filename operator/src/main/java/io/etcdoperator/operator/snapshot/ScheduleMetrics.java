package io.etcdoperator.operator.snapshot;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Per-schedule timestamps of the last successful and the last failed snapshot, in Unix seconds (0: none yet), and the
 * longest wait between two firings (0 while suspended), so an alert can fire on
 * {@code time() - etcd_operator_snapshot_schedule_last_success_timestamp_seconds > 2 * ..._interval_seconds}.
 */
public final class ScheduleMetrics {

    static final String LAST_SUCCESS = "etcd_operator_snapshot_schedule_last_success_timestamp_seconds";
    static final String LAST_FAILURE = "etcd_operator_snapshot_schedule_last_failure_timestamp_seconds";
    static final String INTERVAL = "etcd_operator_snapshot_schedule_interval_seconds";

    /** What a pass saw: its newest complete and newest failed snapshot, and its longest gap (zero: suspended). */
    public record Progress(Optional<Instant> lastSuccess, Optional<Instant> lastFailure, Duration interval) {}

    private record Key(String namespace, String schedule) {}

    private record Gauges(AtomicLong success, AtomicLong failure, AtomicLong interval, List<Meter> meters) {}

    private final MeterRegistry registry;
    private final Map<Key, Gauges> gauges = new ConcurrentHashMap<>();

    public ScheduleMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public void record(String namespace, String schedule, Progress progress) {
        Gauges g = gauges.computeIfAbsent(new Key(namespace, schedule), this::register);
        g.success().set(progress.lastSuccess().map(Instant::getEpochSecond).orElse(0L));
        g.failure().set(progress.lastFailure().map(Instant::getEpochSecond).orElse(0L));
        g.interval().set(progress.interval().toSeconds());
    }

    public void forget(String namespace, String schedule) {
        Gauges removed = gauges.remove(new Key(namespace, schedule));
        if (removed != null) {
            removed.meters().forEach(registry::remove);
        }
    }

    private Gauges register(Key key) {
        Tags tags = Tags.of("namespace", key.namespace(), "schedule", key.schedule());
        var success = new AtomicLong();
        var failure = new AtomicLong();
        var interval = new AtomicLong();
        return new Gauges(
                success,
                failure,
                interval,
                List.of(
                        Gauge.builder(LAST_SUCCESS, success::get)
                                .description("completion time of the schedule's newest complete " + "snapshot")
                                .tags(tags)
                                .register(registry),
                        Gauge.builder(LAST_FAILURE, failure::get)
                                .description("time the schedule's newest failed snapshot failed")
                                .tags(tags)
                                .register(registry),
                        Gauge.builder(INTERVAL, interval::get)
                                .description(
                                        "longest wait between two firings over the next week; " + "0 while suspended")
                                .tags(tags)
                                .register(registry)));
    }
}
