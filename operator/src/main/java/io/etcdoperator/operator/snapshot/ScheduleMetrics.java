package io.etcdoperator.operator.snapshot;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Per-schedule timestamps of the last successful and the last failed snapshot, in Unix seconds (0: none yet), so an
 * alert can fire on {@code time() - etcd_snapshot_schedule_last_success_timestamp_seconds > ...}.
 */
public final class ScheduleMetrics {

  static final String LAST_SUCCESS = "etcd_snapshot_schedule_last_success_timestamp_seconds";
  static final String LAST_FAILURE = "etcd_snapshot_schedule_last_failure_timestamp_seconds";

  private record Key(String namespace, String schedule) {}

  private record Gauges(AtomicLong success, AtomicLong failure) {}

  private final MeterRegistry registry;
  private final Map<Key, Gauges> gauges = new ConcurrentHashMap<>();

  public ScheduleMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  public void record(String namespace, String schedule, Optional<Instant> lastSuccess, Optional<Instant> lastFailure) {
    Gauges g = gauges.computeIfAbsent(new Key(namespace, schedule), this::register);
    g.success().set(lastSuccess.map(Instant::getEpochSecond).orElse(0L));
    g.failure().set(lastFailure.map(Instant::getEpochSecond).orElse(0L));
  }

  private Gauges register(Key key) {
    Tags tags = Tags.of("namespace", key.namespace(), "schedule", key.schedule());
    Gauges g = new Gauges(new AtomicLong(), new AtomicLong());
    Gauge.builder(LAST_SUCCESS, g.success(), AtomicLong::get)
        .description("completion time of the schedule's newest complete snapshot").tags(tags).register(registry);
    Gauge.builder(LAST_FAILURE, g.failure(), AtomicLong::get)
        .description("time the schedule's newest failed snapshot failed").tags(tags).register(registry);
    return g;
  }
}
