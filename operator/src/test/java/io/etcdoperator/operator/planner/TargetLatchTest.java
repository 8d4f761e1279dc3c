package io.etcdoperator.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdClusterSpec;
import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import io.etcdoperator.api.v1alpha2.StorageSpec;
import io.etcdoperator.operator.reason.Reason;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TargetLatchTest {

    private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
    private static final Optional<Instant> LATER = Optional.of(NOW.plusSeconds(60));
    private static final Optional<Instant> PASSED = Optional.of(NOW.minusSeconds(1));

    /** A spec of {@code replicas} members on {@code version} with 1Gi volumes. */
    static EtcdClusterSpec spec(int replicas, String version) {
        EtcdClusterSpec s = new EtcdClusterSpec();
        s.setReplicas(replicas);
        s.setVersion(version);
        StorageSpec storage = new StorageSpec();
        storage.setSize(new Quantity("1Gi"));
        s.setStorage(storage);
        return s;
    }

    private static Optional<ObservedClusterSpec> latched(int replicas, String version) {
        return Optional.of(TargetLatch.snapshot(spec(replicas, version)));
    }

    @Test
    void theFirstValidSpecIsLatched() {
        assertThat(TargetLatch.decide(spec(3, "3.5.16"), Optional.empty(), false, false, Optional.empty(), NOW, true))
                .isEqualTo(new TargetLatch.Latch(Reason.INITIAL_SNAPSHOT));
        assertThat(TargetLatch.decide(spec(3, "3.5.16"), Optional.empty(), false, false, Optional.empty(), NOW, false))
                .isEqualTo(new TargetLatch.Keep());
    }

    @Test
    void aChangedSpecWaitsUntilTheLatchedTargetIsReached() {
        assertThat(TargetLatch.decide(spec(5, "3.5.16"), latched(3, "3.5.16"), true, false, LATER, NOW, true))
                .isEqualTo(new TargetLatch.Keep());
        assertThat(TargetLatch.decide(spec(5, "3.5.16"), latched(3, "3.5.16"), true, true, LATER, NOW, true))
                .isEqualTo(new TargetLatch.Latch(Reason.SPEC_CHANGED));
    }

    /** A roll onto a memory limit too small for etcd crash-loops its first member: the correction is taken at once. */
    @Test
    void aCorrectionIsLatchedAtOnceWhileTheLatchedTargetCrashLoops() {
        assertThat(TargetLatch.decide(spec(3, "3.5.16"), latched(3, "3.5.30"), true, false, LATER, NOW, true, true))
                .isEqualTo(new TargetLatch.Latch(Reason.SPEC_CHANGED));
        assertThat(TargetLatch.decide(spec(3, "3.5.16"), latched(3, "3.5.30"), true, false, LATER, NOW, true, false))
                .as("without a crash loop the roll finishes first")
                .isEqualTo(new TargetLatch.Keep());
        assertThat(TargetLatch.decide(spec(3, "3.5.16"), latched(3, "3.5.30"), true, false, LATER, NOW, false, true))
                .as("an invalid correction is never latched")
                .isEqualTo(new TargetLatch.Keep());
    }

    @Test
    void fewerReplicasAreLatchedAtOnceSoAScaleUpThatCannotFinishCanBeReverted() {
        assertThat(TargetLatch.decide(spec(3, "3.5.16"), latched(4, "3.5.16"), true, false, LATER, NOW, true))
                .isEqualTo(new TargetLatch.Latch(Reason.SPEC_CHANGED));
        assertThat(TargetLatch.decide(spec(3, "3.5.30"), latched(4, "3.5.16"), true, false, LATER, NOW, true))
                .as("with other changes it is new work, which waits")
                .isEqualTo(new TargetLatch.Keep());
        assertThat(TargetLatch.decide(spec(1, "3.5.16"), latched(3, "3.5.16"), false, false, LATER, NOW, true))
                .as("before formation")
                .isEqualTo(new TargetLatch.Keep());
    }

    @Test
    void aVersionChangeIsNewWork() {
        assertThat(TargetLatch.decide(spec(3, "3.5.30"), latched(3, "3.5.16"), true, true, Optional.empty(), NOW, true))
                .isEqualTo(new TargetLatch.Latch(Reason.SPEC_CHANGED));
    }

    @Test
    void aRefusedSpecIsNeverLatched() {
        assertThat(TargetLatch.decide(
                        spec(3, "3.4.23"), latched(3, "3.5.16"), true, true, Optional.empty(), NOW, false))
                .isEqualTo(new TargetLatch.Keep());
    }

    @Test
    void pastTheDeadlineAChangedSpecIsLatchedAsARetryAndAnUnchangedOneStops() {
        assertThat(TargetLatch.decide(spec(3, "3.5.16"), latched(3, "3.5.99"), true, false, PASSED, NOW, true))
                .isEqualTo(new TargetLatch.Latch(Reason.RETRY_AFTER_DEADLINE));
        assertThat(TargetLatch.decide(spec(3, "3.5.99"), latched(3, "3.5.99"), true, false, PASSED, NOW, true))
                .isEqualTo(new TargetLatch.Exceeded(false));
        assertThat(TargetLatch.decide(spec(3, "3.5.99"), latched(3, "3.5.99"), false, false, PASSED, NOW, true))
                .isEqualTo(new TargetLatch.Exceeded(true));
    }
}
