package io.etcdoperator.operator.planner;

import static io.etcdoperator.operator.planner.Observations.cluster;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.reason.RestartReason;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A member whose node stopped is replaced after NodeLoss.GRACE while quorum allows; the Pod it leaves on that node is
 * force-deleted only once its member is out of etcd.
 */
class NodeLossTest {

    private static final Instant DOWN = Instant.parse("2026-01-01T00:00:00Z");
    private final ClusterPlanner planner = new ClusterPlanner();

    private static Observations oneNodeDown() {
        return cluster().voter("a").voter("b").unreadyVoter("c").nodeDown("c", "node-3", DOWN);
    }

    @Test
    void withinTheGraceTimeTheClusterWaitsAndSaysWhy() {
        Step step = planner.next(oneNodeDown().at(DOWN.plusSeconds(20)).build(), 3);
        assertThat(step).isInstanceOf(Step.Wait.class);
        assertThat(step.reason()).isEqualTo(Reason.NODE_NOT_READY);
        assertThat(((Step.Wait) step).detail()).contains("c", "node-3", "20 s");
        assertThat(((Step.Wait) step).recheck()).isEqualTo(ClusterPlanner.LONG);
    }

    @Test
    void theLastLookIsAtTheEndOfTheGraceTime() {
        Step step = planner.next(
                oneNodeDown().at(DOWN.plus(NodeLoss.GRACE).minusSeconds(3)).build(), 3);
        assertThat(((Step.Wait) step).recheck()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void pastTheGraceTimeWithQuorumTheMemberIsReplaced() {
        Step step = planner.next(oneNodeDown().at(DOWN.plus(NodeLoss.GRACE)).build(), 3);
        assertThat(step).isEqualTo(new Step.ReplaceNodeLostMember("c", "node-3", NodeLoss.GRACE));
        assertThat(step.reason()).isEqualTo(Reason.NODE_NOT_READY);
    }

    @Test
    void pastTheGraceTimeWithoutQuorumNothingIsRemoved() {
        Observations o = cluster()
                .voter("a")
                .unreadyVoter("b")
                .unreadyVoter("c")
                .nodeDown("c", "node-3", DOWN)
                .at(DOWN.plusSeconds(600));
        Step step = planner.next(o.build(), 3);
        assertThat(step).isInstanceOf(Step.Wait.class);
        assertThat(step.reason()).isEqualTo(Reason.QUORUM_AT_RISK);
        assertThat(((Step.Wait) step).detail()).contains("node-3");
    }

    @Test
    void aNodeReadyAgainChangesNothing() {
        Observations o = cluster().voter("a").voter("b").voter("c").at(DOWN.plusSeconds(600));
        assertThat(planner.next(o.build(), 3)).isEqualTo(new Step.Converged(Reason.RECONCILED));
    }

    @Test
    void oneMemberAtATimeTheLongestDownFirst() {
        Observations o = cluster()
                .voter("a")
                .voter("b")
                .voter("c")
                .unreadyVoter("d")
                .unreadyVoter("e")
                .nodeDown("d", "node-4", DOWN.plusSeconds(5))
                .nodeDown("e", "node-5", DOWN)
                .at(DOWN.plusSeconds(120));
        assertThat(((Step.ReplaceNodeLostMember) planner.next(o.build(), 5)).member())
                .isEqualTo("e");
    }

    @Test
    void aLearnerOnAStoppedNodeIsRemovedWithoutAQuorumQuestion() {
        Observations o = cluster()
                .voter("a")
                .unreadyVoter("b")
                .learner("c", true)
                .nodeDown("c", "node-3", DOWN)
                .at(DOWN.plus(NodeLoss.GRACE));
        assertThat(planner.next(o.build(), 3)).isInstanceOf(Step.ReplaceNodeLostMember.class);
    }

    @Test
    void aBrokenMemberGoesFirstAndARollWaits() {
        Observations o = cluster()
                .voter("a")
                .voter("b")
                .unreadyVoter("c")
                .unreadyVoter("d")
                .voter("e")
                .broken("d", true)
                .nodeDown("c", "node-3", DOWN)
                .outdated("a", RestartReason.VERSION_CHANGED)
                .at(DOWN.plus(NodeLoss.GRACE));
        assertThat(planner.next(o.build(), 5)).isInstanceOf(Step.ReplaceBrokenMember.class);
        Observations rolling =
                oneNodeDown().outdated("a", RestartReason.VERSION_CHANGED).at(DOWN.plusSeconds(1));
        assertThat(planner.next(rolling.build(), 3).reason()).isEqualTo(Reason.NODE_NOT_READY);
    }

    @Test
    void quorumLossRecoveryAndAnUnreachableClusterGoFirst() {
        Observations o = oneNodeDown()
                .at(DOWN.plus(NodeLoss.GRACE))
                .etcdView(new EtcdView.Unreachable(Reason.CLUSTER_UNREACHABLE, "timeout"));
        assertThat(planner.next(o.build(), 3).reason()).isEqualTo(Reason.CLUSTER_UNREACHABLE);
    }

    @Test
    void aStrandedPodIsForceDeletedOnceItsMemberIsOutOfEtcd() {
        Observations o =
                cluster().voter("a").voter("b").stranded("c", "node-3", DOWN).at(DOWN.plus(NodeLoss.GRACE));
        assertThat(planner.next(o.build(), 3)).isEqualTo(new Step.ForceDeletePod("c", "node-3"));
    }

    @Test
    void aStrandedPodWhoseMemberEtcdStillListsIsLeftAlone() {
        Observations o = cluster()
                .voter("a")
                .voter("b")
                .orphanInEtcd("c", false)
                .stranded("c", "node-3", DOWN)
                .at(DOWN.plus(NodeLoss.GRACE));
        assertThat(planner.next(o.build(), 3)).isNotInstanceOf(Step.ForceDeletePod.class);
    }

    @Test
    void aStrandedPodWithinTheGraceTimeIsLeftAlone() {
        Observations o =
                cluster().voter("a").voter("b").stranded("c", "node-3", DOWN).at(DOWN.plusSeconds(10));
        assertThat(planner.next(o.build(), 3)).isInstanceOf(Step.CreateMember.class);
    }
}
