package io.etcdoperator.operator.planner;

import static io.etcdoperator.operator.planner.Observations.cluster;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.reason.RestartReason;
import org.junit.jupiter.api.Test;

/** A member that lost its data is replaced, never restarted under its old id, and only with quorum; a crash loop is named. */
class BrokenMemberTest {

    private final ClusterPlanner planner = new ClusterPlanner();

    @Test
    void aMemberThatLostItsDataIsReplaced() {
        Observations o = cluster().voter("a").voter("b").unreadyVoter("c").broken("c", true);
        Step step = planner.next(o.build(), 3);
        assertThat(step).isInstanceOf(Step.ReplaceBrokenMember.class);
        assertThat(step.reason()).isEqualTo(Reason.DATA_LOST);
        assertThat(((Step.ReplaceBrokenMember) step).member()).isEqualTo("c");
    }

    @Test
    void lostDataGoesBeforeACrashLoopAndBeforeARoll() {
        Observations o = cluster()
                .voter("a")
                .unreadyVoter("b")
                .unreadyVoter("c")
                .voter("d")
                .voter("e")
                .broken("b", false)
                .broken("c", true)
                .outdated("a", RestartReason.VERSION_CHANGED);
        assertThat(((Step.ReplaceBrokenMember) planner.next(o.build(), 5)).member())
                .isEqualTo("c");
    }

    /** `kubectl etcd leave`: the member's etcd stops as soon as it applies its removal, and its id is gone for good. */
    @Test
    void aMemberEtcdRemovedIsReplacedOnBothProofs() {
        Observations o = cluster().voter("a").voter("b").removedFromEtcd("c").stoppedByItself("c");
        Step step = planner.next(o.build(), 3);
        assertThat(step).isInstanceOf(Step.ReplaceBrokenMember.class);
        assertThat(step.reason()).isEqualTo(Reason.MEMBER_LEFT);
        assertThat(((Step.ReplaceBrokenMember) step).member()).isEqualTo("c");

        Observations stillListed = cluster()
                .voter("a")
                .voter("b")
                .removedFromEtcd("c")
                .orphanInEtcd("c", false)
                .stoppedByItself("c");
        assertThat(planner.next(stillListed.build(), 3))
                .as("etcd still lists it: its exit proves nothing")
                .isNotInstanceOf(Step.ReplaceBrokenMember.class);
        Observations noWord = cluster().voter("a").voter("b").removedFromEtcd("c");
        assertThat(planner.next(noWord.build(), 3))
                .as("not listed, but its etcd did not say it stopped by itself")
                .isNotInstanceOf(Step.ReplaceBrokenMember.class);
    }

    @Test
    void aCrashLoopingMemberIsNamedNotReplaced() {
        Observations o = cluster().voter("a").voter("b").unreadyVoter("c").broken("c", false);
        Step step = planner.next(o.build(), 3);
        assertThat(step).isInstanceOf(Step.Wait.class);
        assertThat(step.reason()).isEqualTo(Reason.MEMBER_CRASH_LOOPING);
        assertThat(((Step.Wait) step).detail())
                .contains("c crash-loops")
                .contains("exit code 2")
                .contains("not replaced");
    }

    @Test
    void neverWhenTheRemovalWouldCostTheQuorum() {
        Observations o =
                cluster().voter("a").unreadyVoter("b").unreadyVoter("c").broken("c", true);
        assertThat(planner.next(o.build(), 3).reason()).isEqualTo(Reason.QUORUM_AT_RISK);
    }
}
