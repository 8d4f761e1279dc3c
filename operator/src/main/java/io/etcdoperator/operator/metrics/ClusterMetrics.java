package io.etcdoperator.operator.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Per-cluster gauges: members, voters, learners, ready members. Labels are namespace and cluster name only. */
public final class ClusterMetrics {

  public record Counts(int members, int voters, int learners, int ready) {}

  private record Key(String namespace, String name) {}

  private record Gauges(AtomicInteger members, AtomicInteger voters, AtomicInteger learners, AtomicInteger ready) {}

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

  public void forget(String namespace, String name) {
    if (gauges.remove(new Key(namespace, name)) != null) {
      Tags tags = Tags.of("namespace", namespace, "cluster", name);
      for (String metric : new String[] {"members", "voters", "learners", "ready_members"}) {
        registry.find("etcd_operator_cluster_" + metric).tags(tags).meters().forEach(registry::remove);
      }
    }
  }

  private Gauges register(Key key) {
    Tags tags = Tags.of("namespace", key.namespace(), "cluster", key.name());
    Gauges g = new Gauges(new AtomicInteger(), new AtomicInteger(), new AtomicInteger(), new AtomicInteger());
    gauge("members", "EtcdMembers that are neither dormant nor deleting", tags, g.members());
    gauge("voters", "voting members in etcd's member list", tags, g.voters());
    gauge("learners", "learners in etcd's member list", tags, g.learners());
    gauge("ready_members", "members whose Ready condition is True", tags, g.ready());
    return g;
  }

  private void gauge(String name, String help, Tags tags, AtomicInteger value) {
    Gauge.builder("etcd_operator_cluster_" + name, value, AtomicInteger::get)
        .description(help)
        .tags(tags)
        .register(registry);
  }
}
