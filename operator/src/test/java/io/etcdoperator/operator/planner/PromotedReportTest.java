package io.etcdoperator.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.status.ClusterHealth;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the pass whose MemberPromote etcd accepted reports: the learner it promoted, if ready, is counted at once. */
class PromotedReportTest {

    private static ClusterHealth.Report report(ObservedCluster observed) {
        return ClusterHealth.assess(observed, 3, false, Reason.LEARNER_PROMOTED, "promoted", List.of(), null);
    }

    @Test
    void aReadyLearnerJustPromotedCountsInReady() {
        ObservedCluster seen =
                Observations.cluster().voter("a").voter("b").readyLearner("c").build();

        ClusterHealth.Report before = report(seen);
        ClusterHealth.Report after = report(seen.promoted(Observations.id("c")));

        assertThat(before.ready()).isEqualTo(2);
        assertThat(after.ready()).isEqualTo(3);
        assertThat(after.voters()).isEqualTo(3);
        assertThat(after.learners()).isZero();
        assertThat(after.degraded().status()).isFalse();
    }

    @Test
    void aLearnerNotSeenReadyIsReportedAsSeen() {
        ObservedCluster seen =
                Observations.cluster().voter("a").learner("b", true).build();

        ClusterHealth.Report after = report(seen.promoted(Observations.id("b")));

        assertThat(after.ready()).isEqualTo(1);
        assertThat(after.voters())
                .as("no voter counted down: no quorum lost in this report")
                .isEqualTo(1);
        assertThat(after.available().status()).isTrue();
    }

    @Test
    void anotherIdChangesNothing() {
        ObservedCluster seen =
                Observations.cluster().voter("a").readyLearner("b").build();

        assertThat(seen.promoted(Observations.id("x"))).isSameAs(seen);
    }
}
