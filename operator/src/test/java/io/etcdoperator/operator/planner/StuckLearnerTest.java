package io.etcdoperator.operator.planner;

import static io.etcdoperator.operator.planner.Observations.cluster;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.reason.Reason;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A learner that never comes up blocks every later join (etcd admits one learner at a time): it is replaced. */
class StuckLearnerTest {

    private final ClusterPlanner planner = new ClusterPlanner();
    private static final Instant LATER =
            Instant.EPOCH.plus(ClusterPlanner.LEARNER_STUCK).plus(Duration.ofMinutes(1));

    @Test
    void aLearnerThatNeverStartedIsRemovedAfterTenMinutes() {
        Observations o = cluster().voter("a").voter("b").learner("c", false).at(LATER);
        assertThat(planner.next(o.build(), 3)).isEqualTo(new Step.RemoveStuckLearner("c"));
    }

    @Test
    void aStartedLearnerWhosePodIsDownIsRemovedToo() {
        Observations o = cluster().voter("a").voter("b").learner("c", true).at(LATER);
        assertThat(planner.next(o.build(), 3)).isEqualTo(new Step.RemoveStuckLearner("c"));
    }

    @Test
    void aYoungLearnerIsWaitedFor() {
        Observations o = cluster()
                .voter("a")
                .voter("b")
                .learner("c", false)
                .at(Instant.EPOCH.plus(ClusterPlanner.LEARNER_STUCK).minusSeconds(30));
        assertThat(planner.next(o.build(), 3).reason()).isEqualTo(Reason.LEARNER_CATCHING_UP);
    }

    @Test
    void anObservationWithoutAClockNeverCallsALearnerStuck() {
        Observations o = cluster().voter("a").voter("b").learner("c", false);
        assertThat(planner.next(o.build(), 3).reason()).isEqualTo(Reason.LEARNER_CATCHING_UP);
    }
}
