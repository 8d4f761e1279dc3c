package io.etcdoperator.operator.snapshot;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Settled verifications by result ({@code verified}, {@code failed}) and reason, so an alert can fire on
 * {@code increase(etcd_operator_snapshot_verifications_total{result="failed"}[1d]) > 0}.
 */
public final class VerifyMetrics {

    static final String VERIFICATIONS = "etcd_operator_snapshot_verifications_total";

    private final MeterRegistry registry;

    public VerifyMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public void record(boolean verified, String reason) {
        Counter.builder(VERIFICATIONS)
                .description("settled snapshot verifications")
                .tag("result", verified ? "verified" : "failed")
                .tag("reason", reason)
                .register(registry)
                .increment();
    }
}
