package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.operator.reason.Reason;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** How soon a cluster is looked at again: quick gates, a reason that lasts, and a cluster at rest. */
class WaitPacingTest {

    private static final String CLUSTER = "default/demo";
    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");
    private static final Duration QUICK = Duration.ofMillis(500);

    private final WaitPacing pacing = new WaitPacing();

    @Test
    void aQuickRecheckSlowsToTwoSecondsOnceItsReasonLastsFifteen() {
        assertThat(pacing.pace(CLUSTER, Reason.LEARNER_CATCHING_UP, QUICK, T0)).isEqualTo(QUICK);
        assertThat(pacing.pace(CLUSTER, Reason.LEARNER_CATCHING_UP, QUICK, T0.plusSeconds(16)))
                .isEqualTo(WaitPacing.SLOWEST_QUICK);
        assertThat(pacing.pace(CLUSTER, Reason.MEMBERS_NOT_READY, QUICK, T0.plusSeconds(17)))
                .as("a new reason is quick again")
                .isEqualTo(QUICK);
    }

    @Test
    void aSettledClusterRestsAfterTwoMinutesConvergedAndWakesOnAnythingElse() {
        pacing.settle(CLUSTER, true);
        assertThat(pacing.pace(CLUSTER, Reason.RECONCILED, StepExecutor.STEADY, T0))
                .isEqualTo(StepExecutor.STEADY);
        assertThat(pacing.pace(CLUSTER, Reason.RECONCILED, StepExecutor.STEADY, T0.plusSeconds(90)))
                .isEqualTo(StepExecutor.STEADY);
        assertThat(pacing.pace(CLUSTER, Reason.RECONCILED, StepExecutor.STEADY, T0.plusSeconds(121)))
                .isEqualTo(WaitPacing.RESTING);

        pacing.settle(CLUSTER, false); // a pass that had to go to the API server
        assertThat(pacing.pace(CLUSTER, Reason.RECONCILED, StepExecutor.STEADY, T0.plusSeconds(150)))
                .as("not settled: not at rest")
                .isEqualTo(StepExecutor.STEADY);
        pacing.settle(CLUSTER, true);
        assertThat(pacing.pace(CLUSTER, Reason.MEMBERS_NOT_READY, StepExecutor.STEADY, T0.plusSeconds(180)))
                .as("another reason starts the two minutes again")
                .isEqualTo(StepExecutor.STEADY);
    }

    @Test
    void aNewTargetWakesARestingCluster() {
        pacing.settle(CLUSTER, true);
        pacing.pace(CLUSTER, Reason.RECONCILED, StepExecutor.STEADY, T0);
        pacing.wake(CLUSTER); // LatchTarget: the pass returns before pace
        assertThat(pacing.pace(CLUSTER, Reason.RECONCILED, StepExecutor.STEADY, T0.plusSeconds(300)))
                .as("converged again on the new target: two minutes from now")
                .isEqualTo(StepExecutor.STEADY);
    }

    @Test
    void restingNeverStretchesARecheckOtherThanTheSteadyOne() {
        pacing.settle(CLUSTER, true);
        pacing.pace(CLUSTER, Reason.RECONCILED, StepExecutor.STEADY, T0);
        assertThat(pacing.pace(CLUSTER, Reason.RECONCILED, Duration.ofSeconds(5), T0.plusSeconds(300)))
                .isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aRestingClustersEtcdChannelsStayOpenBetweenItsPasses() {
        assertThat(EtcdConnection.CHANNEL_IDLE)
                .as("a channel idle before the next resting pass reconnects on every pass")
                .isGreaterThan(WaitPacing.RESTING.multipliedBy(2));
    }

    @Test
    void aForgottenClusterStartsAfresh() {
        pacing.settle(CLUSTER, true);
        pacing.pace(CLUSTER, Reason.RECONCILED, StepExecutor.STEADY, T0);
        pacing.forget("default", "demo");
        assertThat(pacing.settled(CLUSTER)).isFalse();
        assertThat(pacing.pace(CLUSTER, Reason.RECONCILED, StepExecutor.STEADY, T0.plusSeconds(300)))
                .isEqualTo(StepExecutor.STEADY);
    }
}
