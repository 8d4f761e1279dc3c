package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.operator.planner.AdoptionSteps;
import io.etcdoperator.operator.planner.Step;
import io.etcdoperator.operator.reason.Reason;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A step etcd refused is reported under a reason that says what was refused, not always a membership change; a wait
 * only a person can end is a warning (an event when it first shows).
 */
class StepRefusedTest {

    @Test
    void waitsOnlyAPersonCanEndAreWarnings() {
        var executor = new StepExecutor(null, null, null, null, null, LeaseCheck.NONE, null);
        var nothing = new ClusterObserver.Observation(null, List.of(), Optional.empty());
        for (Reason personal :
                List.of(Reason.MEMBER_CRASH_LOOPING, Reason.SPACE_QUOTA_FULL, Reason.QUORUM_RECOVERY_REFUSED)) {
            assertThat(executor.execute(
                                    new Step.Wait(personal, "why", Duration.ofSeconds(30)),
                                    null,
                                    nothing,
                                    Optional.empty())
                            .warning())
                    .as(personal.reason())
                    .isTrue();
        }
        assertThat(executor.execute(
                                new Step.Wait(Reason.MEMBERS_NOT_READY, "why", Duration.ofSeconds(1)),
                                null,
                                nothing,
                                Optional.empty())
                        .warning())
                .as("a wait that ends on its own")
                .isFalse();
    }

    @Test
    void membershipStepsAreMembershipChangesAndOtherCallsAreNot() {
        MemberId id = MemberId.parse("8e9e05c52164694d");
        assertThat(new Step.AddLearner("a", URI.create("http://a:2380"), "a=http://a:2380").refusal())
                .isEqualTo(Reason.MEMBERSHIP_CHANGE_REFUSED);
        assertThat(new Step.PromoteLearner("a", id).refusal()).isEqualTo(Reason.MEMBERSHIP_CHANGE_REFUSED);
        assertThat(new Step.CreateMember().refusal()).isEqualTo(Reason.MEMBERSHIP_CHANGE_REFUSED);
        assertThat(new Step.RemoveOrphan(id, "a").refusal()).isEqualTo(Reason.MEMBERSHIP_CHANGE_REFUSED);
        assertThat(new AdoptionSteps.RemoveExternal(id, "a", 3).refusal()).isEqualTo(Reason.MEMBERSHIP_CHANGE_REFUSED);
        assertThat(new Step.MoveLeader("a", "b", id).refusal()).isEqualTo(Reason.ETCD_CALL_FAILED);
        assertThat(new Step.EnableAuth().refusal()).isEqualTo(Reason.ETCD_CALL_FAILED);
    }
}
