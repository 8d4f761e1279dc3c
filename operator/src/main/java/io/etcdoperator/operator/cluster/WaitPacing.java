package io.etcdoperator.operator.cluster;

import io.etcdoperator.operator.reason.Reason;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Quick rechecks are for gates that open within seconds (etcd's 5 s health gate, a learner starting). When the same
 * reason holds for longer, something else is wrong and the cluster is looked at no more often than every 2 s. A
 * cluster whose last pass planned Converged is settled: its next pass may run on the caches; settled for 2 minutes,
 * it is at rest and looked at every 60 s instead of 30 (docs/concepts.md, "A fleet at rest").
 */
final class WaitPacing implements ClusterMemory {

    static final Duration PATIENCE = Duration.ofSeconds(15);
    static final Duration SLOWEST_QUICK = Duration.ofSeconds(2);
    static final Duration RESTING_AFTER = Duration.ofMinutes(2);
    static final Duration RESTING = Duration.ofSeconds(60);

    private record Since(Reason reason, Instant at) {}

    private final Map<String, Since> current = new ConcurrentHashMap<>();
    private final Set<String> settled = ConcurrentHashMap.newKeySet();

    Duration pace(String cluster, Reason reason, Duration recheck, Instant now) {
        Since since = current.compute(
                cluster, (k, held) -> held != null && held.reason() == reason ? held : new Since(reason, now));
        boolean lasting = since.at().plus(PATIENCE).isBefore(now);
        if (lasting && recheck.compareTo(SLOWEST_QUICK) < 0) {
            return SLOWEST_QUICK;
        }
        // at rest, what wakes no pass (etcd's own state, the cluster's annotations) waits up to 60 s: docs/concepts.md
        boolean resting =
                settled.contains(cluster) && since.at().plus(RESTING_AFTER).isBefore(now);
        return resting && recheck.equals(StepExecutor.STEADY) ? RESTING : recheck;
    }

    /** A new target was latched: the cluster is not at rest, whatever reason its next pass ends with. */
    void wake(String cluster) {
        current.remove(cluster);
    }

    /** Settled: the cluster's last pass on the API server planned Converged (its next may run on the caches). */
    void settle(String cluster, boolean converged) {
        if (converged) {
            settled.add(cluster);
        } else {
            settled.remove(cluster);
        }
    }

    boolean settled(String cluster) {
        return settled.contains(cluster);
    }

    @Override
    public void forget(String namespace, String name) {
        current.remove(namespace + "/" + name);
        settled.remove(namespace + "/" + name);
    }
}
