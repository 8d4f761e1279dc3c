package io.etcdoperator.operator.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Per-cluster gauges: members, voters, learners, ready members, and the backend space (largest member database, its
 * size in use, the quota) and raised alarms. Labels are namespace and cluster name only.
 */
public final class ClusterMetrics {

  public record Counts(int members, int voters, int learners, int ready) {}

  /** The largest database a member reported this pass, the largest size in use, the quota, and etcd's alarms. */
  public record Space(long dbSize, long dbSizeInUse, long quota, int alarms) {}

  private record Key(String namespace, String name) {}

  private record Gauges(AtomicInteger members, AtomicInteger voters, AtomicInteger learners, AtomicInteger ready,
      AtomicLong dbSize, AtomicLong dbSizeInUse, AtomicLong quota, AtomicInteger alarms) {}

  private final MeterRegistry registry;
  private final Map<Key, Gauges> gauges = new ConcurrentHashMap<>();

  public ClusterMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  public void record(String namespace, String name, Counts counts) {
    Gauges g = gauges.computeIfAbsent(new Key(namespace, name), k -> register(k));
    g.members().set(counts.members());
    g.voters().set(counts.voters());
    g.learners().set(counts.learners());
    g.ready().set(counts.ready());
  }

  public void record(String namespace, String name, Space space) {
    Gauges g = gauges.computeIfAbsent(new Key(namespace, name), k -> register(k));
    g.dbSize().set(space.dbSize());
    g.dbSizeInUse().set(space.dbSizeInUse());
    g.quota().set(space.quota());
    g.alarms().set(space.alarms());
  }

  public void forget(String namespace, String name) {
    if (gauges.remove(new Key(namespace, name)) != null) {
      Tags tags = Tags.of("namespace", namespace, "cluster", name);
      for (String metric : new String[] {"members", "voters", "learners", "ready_members",
          "db_size_bytes", "db_size_in_use_bytes", "quota_bytes", "alarms"}) {
        registry.find("etcd_operator_cluster_" + metric).tags(tags).meters().forEach(registry::remove);
      }
    }
  }

  private Gauges register(Key key) {
    Tags tags = Tags.of("namespace", key.namespace(), "cluster", key.name());
    Gauges g = new Gauges(new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), new AtomicInteger(),
        new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicInteger());
    gauge("members", "EtcdMembers that are neither dormant nor deleting", tags, g.members());
    gauge("voters", "voting members in etcd's member list", tags, g.voters());
    gauge("learners", "learners in etcd's member list", tags, g.learners());
    gauge("ready_members", "members whose Ready condition is True", tags, g.ready());
    gauge("db_size_bytes", "largest backend database a member reported (Maintenance Status dbSize)", tags, g.dbSize());
    gauge("db_size_in_use_bytes", "largest size in use a member reported (dbSizeInUse)", tags, g.dbSizeInUse());
    gauge("quota_bytes", "the backend quota the members run with", tags, g.quota());
    gauge("alarms", "alarms etcd raised (NOSPACE, CORRUPT) and that are not disarmed", tags, g.alarms());
    return g;
  }

  private void gauge(String name, String help, Tags tags, AtomicLong value) {
    Gauge.builder("etcd_operator_cluster_" + name, value, AtomicLong::get)
        .description(help)
        .tags(tags)
        .register(registry);
  }

  private void gauge(String name, String help, Tags tags, AtomicInteger value) {
    Gauge.builder("etcd_operator_cluster_" + name, value, AtomicInteger::get)
        .description(help)
        .tags(tags)
        .register(registry);
  }
}
