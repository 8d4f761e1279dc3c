package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.operator.planner.Step;
import io.etcdoperator.operator.reason.Reason;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** A step etcd refused is reported under a reason that says what was refused, not always a membership change. */
class StepRefusedTest {

  @Test
  void membershipStepsAreMembershipChangesAndOtherCallsAreNot() {
    MemberId id = MemberId.parse("8e9e05c52164694d");
    assertThat(StepExecutor.refused(new Step.AddLearner("a", URI.create("http://a:2380"), "a=http://a:2380")))
        .isEqualTo(Reason.MEMBERSHIP_CHANGE_REFUSED);
    assertThat(StepExecutor.refused(new Step.PromoteLearner("a", id))).isEqualTo(Reason.MEMBERSHIP_CHANGE_REFUSED);
    assertThat(StepExecutor.refused(new Step.MoveLeader("a", "b", id))).isEqualTo(Reason.ETCD_CALL_FAILED);
    assertThat(StepExecutor.refused(new Step.EnableAuth())).isEqualTo(Reason.ETCD_CALL_FAILED);
  }
}
