package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.reason.Reason;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** How soon a cluster is looked at again: quick gates, and a reason that lasts. */
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
    void aForgottenClusterStartsAfresh() {
        pacing.settle(CLUSTER, true);
        pacing.pace(CLUSTER, Reason.LEARNER_CATCHING_UP, QUICK, T0);
        pacing.forget("default", "demo");
        assertThat(pacing.settled(CLUSTER)).isFalse();
        assertThat(pacing.pace(CLUSTER, Reason.LEARNER_CATCHING_UP, QUICK, T0.plusSeconds(300)))
                .as("its reason's time starts again")
                .isEqualTo(QUICK);
    }
}
