package io.etcdoperator.operator.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Per-cluster gauges: members, voters, learners, ready voters, the backend space (largest member database, its size in
 * use, the quota), raised alarms, the time of the last pass that completed and the earliest expiry of the
 * certificates the operator issued. Labels are namespace and cluster name
 * only; the namespace is the EtcdCluster's (the chart's ServiceMonitor honours it, as kube-state-metrics' does).
 */
public final class ClusterMetrics {

    public static final String PREFIX = "etcd_operator_cluster_";

    public record Counts(int members, int voters, int learners, int ready) {}

    /** The largest database a member reported this pass, the largest size in use, the quota, and etcd's alarms. */
    public record Space(long dbSize, long dbSizeInUse, long quota, int alarms) {}

    private record Key(String namespace, String name) {}

    private record Gauges(
            AtomicInteger members,
            AtomicInteger voters,
            AtomicInteger learners,
            AtomicInteger ready,
            AtomicLong dbSize,
            AtomicLong dbSizeInUse,
            AtomicLong quota,
            AtomicInteger alarms,
            AtomicLong lastSuccess,
            AtomicLong certificateRenewal,
            AtomicLong certificateExpiry,
            List<Meter> meters) {}

    private final MeterRegistry registry;
    private final Map<Key, Gauges> gauges = new ConcurrentHashMap<>();

    public ClusterMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public void record(String namespace, String name, Counts counts) {
        Gauges g = of(namespace, name);
        g.members().set(counts.members());
        g.voters().set(counts.voters());
        g.learners().set(counts.learners());
        g.ready().set(counts.ready());
    }

    public void record(String namespace, String name, Space space) {
        Gauges g = of(namespace, name);
        g.dbSize().set(space.dbSize());
        g.dbSizeInUse().set(space.dbSizeInUse());
        g.quota().set(space.quota());
        g.alarms().set(space.alarms());
    }

    /** A pass ran to its end without throwing; an alert on this timestamp's age finds a stalled or failing loop. */
    public void passed(String namespace, String name, Instant at) {
        of(namespace, name).lastSuccess().set(at.getEpochSecond());
    }

    /** When the certificates the operator issued for the cluster are first due for renewal and first expire. */
    public void certificates(String namespace, String name, Optional<Instant> renewal, Optional<Instant> expiry) {
        Gauges g = of(namespace, name);
        g.certificateRenewal().set(renewal.map(Instant::getEpochSecond).orElse(0L));
        g.certificateExpiry().set(expiry.map(Instant::getEpochSecond).orElse(0L));
    }

    public void forget(String namespace, String name) {
        Gauges removed = gauges.remove(new Key(namespace, name));
        if (removed != null) {
            removed.meters().forEach(registry::remove);
        }
    }

    private Gauges of(String namespace, String name) {
        return gauges.computeIfAbsent(new Key(namespace, name), this::register);
    }

    private Gauges register(Key key) {
        Tags tags = Tags.of("namespace", key.namespace(), "cluster", key.name());
        Gauges g = new Gauges(
                new AtomicInteger(),
                new AtomicInteger(),
                new AtomicInteger(),
                new AtomicInteger(),
                new AtomicLong(),
                new AtomicLong(),
                new AtomicLong(),
                new AtomicInteger(),
                new AtomicLong(),
                new AtomicLong(),
                new AtomicLong(),
                new ArrayList<>());
        List<Meter> m = g.meters();
        m.add(gauge("members", "EtcdMembers that are neither dormant nor deleting", tags, g.members()::get));
        m.add(gauge("voters", "voting members in etcd's member list", tags, g.voters()::get));
        m.add(gauge("learners", "learners in etcd's member list", tags, g.learners()::get));
        m.add(gauge("ready_members", "voters whose member is Ready (learners are not counted)", tags, g.ready()::get));
        m.add(gauge(
                "db_size_bytes",
                "largest backend database a member reported (Maintenance Status dbSize)",
                tags,
                g.dbSize()::get));
        m.add(gauge(
                "db_size_in_use_bytes",
                "largest size in use a member reported (dbSizeInUse)",
                tags,
                g.dbSizeInUse()::get));
        m.add(gauge("quota_bytes", "the backend quota the members run with", tags, g.quota()::get));
        m.add(gauge(
                "alarms", "alarms etcd raised (NOSPACE, CORRUPT) and that are not disarmed", tags, g.alarms()::get));
        m.add(gauge(
                "last_reconcile_success_timestamp_seconds",
                "start of the last pass that completed without an " + "error, Unix seconds",
                tags,
                g.lastSuccess()::get));
        m.add(gauge(
                "certificate_renewal_timestamp_seconds",
                "earliest time one of the certificates the operator issued for the cluster is due for renewal (two"
                        + " thirds of its life), Unix seconds; 0 without operator-issued TLS",
                tags,
                g.certificateRenewal()::get));
        m.add(gauge(
                "certificate_expiry_timestamp_seconds",
                "earliest notAfter of the CA and leaf certificates the operator issued for the cluster, Unix seconds;"
                        + " 0 without operator-issued TLS",
                tags,
                g.certificateExpiry()::get));
        return g;
    }

    private Meter gauge(String name, String help, Tags tags, Supplier<Number> value) {
        return Gauge.builder(PREFIX + name, value).description(help).tags(tags).register(registry);
    }
}
