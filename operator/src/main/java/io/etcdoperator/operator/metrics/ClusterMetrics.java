package io.etcdoperator.operator.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

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

    /** One series per cluster and gauge; the index is the gauge's slot in a cluster's values. */
    private enum Series {
        MEMBERS("members", "EtcdMembers that are neither dormant nor deleting"),
        VOTERS("voters", "voting members in etcd's member list"),
        LEARNERS("learners", "learners in etcd's member list"),
        READY("ready_members", "voters whose member is Ready (learners are not counted)"),
        DB_SIZE("db_size_bytes", "largest backend database a member reported (Maintenance Status dbSize)"),
        DB_SIZE_IN_USE("db_size_in_use_bytes", "largest size in use a member reported (dbSizeInUse)"),
        QUOTA("quota_bytes", "the backend quota the members run with"),
        ALARMS("alarms", "alarms etcd raised (NOSPACE, CORRUPT) and that are not disarmed"),
        LAST_SUCCESS(
                "last_reconcile_success_timestamp_seconds",
                "start of the last pass that completed without an error, Unix seconds"),
        CERTIFICATE_RENEWAL(
                "certificate_renewal_timestamp_seconds",
                "earliest time one of the certificates the operator issued for the cluster is due for renewal (two"
                        + " thirds of its life), Unix seconds; 0 without operator-issued TLS"),
        CERTIFICATE_EXPIRY(
                "certificate_expiry_timestamp_seconds",
                "earliest notAfter of the CA and leaf certificates the operator issued for the cluster, Unix seconds;"
                        + " 0 without operator-issued TLS");

        private final String name;
        private final String help;

        Series(String name, String help) {
            this.name = PREFIX + name;
            this.help = help;
        }
    }

    private final Map<Key, AtomicLongArray> clusters = new ConcurrentHashMap<>();

    /**
     * The series are read from this object when Prometheus scrapes, not kept as meters: eleven Micrometer gauges
     * cost about 6 KiB of heap per cluster (docs/benchmarks.md), these values 150 bytes.
     */
    public ClusterMetrics(PrometheusRegistry registry) {
        registry.register((MultiCollector) this::collect);
    }

    public void record(String namespace, String name, Counts counts) {
        AtomicLongArray v = of(namespace, name);
        v.set(Series.MEMBERS.ordinal(), counts.members());
        v.set(Series.VOTERS.ordinal(), counts.voters());
        v.set(Series.LEARNERS.ordinal(), counts.learners());
        v.set(Series.READY.ordinal(), counts.ready());
    }

    public void record(String namespace, String name, Space space) {
        AtomicLongArray v = of(namespace, name);
        v.set(Series.DB_SIZE.ordinal(), space.dbSize());
        v.set(Series.DB_SIZE_IN_USE.ordinal(), space.dbSizeInUse());
        v.set(Series.QUOTA.ordinal(), space.quota());
        v.set(Series.ALARMS.ordinal(), space.alarms());
    }

    /** A pass ran to its end without throwing; an alert on this timestamp's age finds a stalled or failing loop. */
    public void passed(String namespace, String name, Instant at) {
        of(namespace, name).set(Series.LAST_SUCCESS.ordinal(), at.getEpochSecond());
    }

    /** When the certificates the operator issued for the cluster are first due for renewal and first expire. */
    public void certificates(String namespace, String name, Optional<Instant> renewal, Optional<Instant> expiry) {
        AtomicLongArray v = of(namespace, name);
        v.set(
                Series.CERTIFICATE_RENEWAL.ordinal(),
                renewal.map(Instant::getEpochSecond).orElse(0L));
        v.set(
                Series.CERTIFICATE_EXPIRY.ordinal(),
                expiry.map(Instant::getEpochSecond).orElse(0L));
    }

    public void forget(String namespace, String name) {
        clusters.remove(new Key(namespace, name));
    }

    private AtomicLongArray of(String namespace, String name) {
        return clusters.computeIfAbsent(new Key(namespace, name), k -> new AtomicLongArray(Series.values().length));
    }

    private MetricSnapshots collect() {
        if (clusters.isEmpty()) {
            return new MetricSnapshots();
        }
        List<GaugeSnapshot.Builder> gauges = new ArrayList<>();
        for (Series series : Series.values()) {
            gauges.add(GaugeSnapshot.builder().name(series.name).help(series.help));
        }
        clusters.forEach((key, values) -> {
            Labels labels = Labels.of("namespace", key.namespace(), "cluster", key.name());
            for (Series series : Series.values()) {
                gauges.get(series.ordinal())
                        .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                                .labels(labels)
                                .value(values.get(series.ordinal()))
                                .build());
            }
        });
        List<MetricSnapshot> snapshots = new ArrayList<>();
        gauges.forEach(g -> snapshots.add(g.build()));
        return new MetricSnapshots(snapshots);
    }
}
