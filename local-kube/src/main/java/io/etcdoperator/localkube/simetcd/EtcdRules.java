package io.etcdoperator.localkube.simetcd;

import java.time.Duration;

/**
 * The timings of etcd's membership gates: a member add is refused until every other voter has been connected for
 * {@code healthGate} (etcd's HealthInterval, 5 s), and a learner is in sync {@code catchUp} after it started.
 */
public record EtcdRules(Duration healthGate, Duration catchUp) {

    public static EtcdRules etcdDefaults() {
        return new EtcdRules(Duration.ofSeconds(5), Duration.ofSeconds(1));
    }
}
