package io.etcdoperator.operator.planner;

import static io.etcdoperator.operator.planner.Observations.cluster;
import static io.etcdoperator.operator.planner.Observations.id;
import static io.etcdoperator.operator.planner.Observations.peer;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.planner.Maintenance.QuorumRecovery;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.reason.RestartReason;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Recovery from a lost quorum, only from the member a person names, never on a cluster that has its quorum. */
class QuorumLossTest {

    private final ClusterPlanner planner = new ClusterPlanner();
    private static final EtcdView UNREACHABLE = new EtcdView.Unreachable(Reason.CLUSTER_UNREACHABLE, "no leader");

    private static Maintenance asked(String from, String flagged) {
        return new Maintenance(
                List.of(),
                Maintenance.DEFAULT_QUOTA,
                Optional.empty(),
                Optional.of(new QuorumRecovery(from, Optional.ofNullable(flagged))));
    }

    private static Observations lostTwoOfThree() {
        return cluster().voter("a").unreadyVoter("b").unreadyVoter("c").etcdView(UNREACHABLE);
    }

    @Test
    void theNamedMemberRestartsWithForceNewCluster() {
        assertThat(planner.next(lostTwoOfThree().maintenance(asked("a", null)).build(), 3))
                .isEqualTo(new QuorumLossSteps.ForceNewCluster("a"));
    }

    @Test
    void aClusterWithItsQuorumIsNeverForced() {
        Observations healthy =
                cluster().voter("a").voter("b").unreadyVoter("c").leader("a").maintenance(asked("a", null));
        Step step = planner.next(healthy.build(), 3);
        assertThat(step.reason()).isEqualTo(Reason.QUORUM_RECOVERY_REFUSED);
        assertThat(((Step.Wait) step).detail()).contains("has its quorum");
    }

    @Test
    void aMemoryMemberOrAnUnknownNameIsRefused() {
        assertThat(planner.next(
                                lostTwoOfThree()
                                        .memory()
                                        .maintenance(asked("a", null))
                                        .build(),
                                3)
                        .reason())
                .isEqualTo(Reason.QUORUM_RECOVERY_REFUSED);
        assertThat(planner.next(lostTwoOfThree().maintenance(asked("zz", null)).build(), 3)
                        .reason())
                .isEqualTo(Reason.QUORUM_RECOVERY_REFUSED);
    }

    @Test
    void whileTheSurvivorRestartsNothingElseHappens() {
        Step step = planner.next(lostTwoOfThree().maintenance(asked("a", "a")).build(), 3);
        assertThat(step).isInstanceOf(Step.Wait.class);
        assertThat(step.reason()).isEqualTo(Reason.QUORUM_RECOVERY);
    }

    @Test
    void onceTheSurvivorRunsAloneTheOthersAreDiscardedTogetherThenTheFlagGoes() {
        EtcdView alone = new EtcdView.Reached(new Membership(
                Observations.CLUSTER, List.of(new Member(id("a"), "a", List.of(peer("a")), List.of(), false))));
        Observations o = cluster()
                .voter("a")
                .unreadyVoter("b")
                .unreadyVoter("c")
                .etcdView(alone)
                .maintenance(asked("a", "a"));
        assertThat(planner.next(o.build(), 3)).isEqualTo(new QuorumLossSteps.DiscardMembers(List.of("b", "c"), "a"));
        Observations discarded =
                cluster().voter("a").deleting("b").etcdView(alone).maintenance(asked("a", "a"));
        assertThat(planner.next(discarded.build(), 3).reason()).isEqualTo(Reason.QUORUM_RECOVERY);
        Observations done = cluster().voter("a").etcdView(alone).maintenance(asked("a", "a"));
        assertThat(planner.next(done.build(), 3)).isEqualTo(new QuorumLossSteps.EndForceNewCluster("a"));
    }

    @Test
    void aMajorityThatLostItsDataRestartsFromTheOneSurvivorWithoutBeingAsked() {
        Observations o = lostTwoOfThree().broken("b", true).broken("c", true);
        assertThat(planner.next(o.build(), 3))
                .isEqualTo(new QuorumLossSteps.StartQuorumRecovery("a", List.of("b", "c")));
    }

    @Test
    void membersThatAreOnlyUnreachableOrCrashLoopNeverStartARecovery() {
        assertThat(planner.next(lostTwoOfThree().build(), 3))
                .isNotInstanceOf(QuorumLossSteps.StartQuorumRecovery.class);
        Step looping = planner.next(
                lostTwoOfThree().broken("b", true).broken("c", false).build(), 3);
        assertThat(looping).isNotInstanceOf(QuorumLossSteps.StartQuorumRecovery.class);
    }

    /** A learner's first start says the same while its peers are not reachable yet: no proof of anything. */
    @Test
    void aWalLessStartThatCouldNotReachItsPeersIsNoProof() {
        Observations o = lostTwoOfThree().noWalStart("b").noWalStart("c");
        assertThat(planner.next(o.build(), 3)).isNotInstanceOf(QuorumLossSteps.StartQuorumRecovery.class);
    }

    @Test
    void aReadyMemberIsNeverCountedAsGone() {
        Observations o = cluster().voter("a").voter("b").leader("a").broken("b", true);
        assertThat(planner.next(o.build(), 3))
                .isNotInstanceOf(Step.Wait.class)
                .isNotInstanceOf(QuorumLossSteps.StartQuorumRecovery.class);
    }

    @Test
    void oneLostMemberOfThreeIsAReplacementNotARecovery() {
        Observations o =
                cluster().voter("a").voter("b").unreadyVoter("c").leader("a").broken("c", true);
        assertThat(planner.next(o.build(), 3)).isInstanceOf(Step.ReplaceBrokenMember.class);
    }

    @Test
    void twoSurvivorsOrAMemorySurvivorOrNoneWaitForAPerson() {
        Observations five = cluster()
                .voter("a")
                .unreadyVoter("b")
                .unreadyVoter("c")
                .unreadyVoter("d")
                .unreadyVoter("e")
                .etcdView(UNREACHABLE)
                .broken("c", true)
                .broken("d", true)
                .broken("e", true);
        Step two = planner.next(five.build(), 5);
        assertThat(two.reason()).isEqualTo(Reason.QUORUM_LOST);
        assertThat(((Step.Wait) two).detail())
                .contains("[c, d, e] lost their data")
                .contains("force-new-cluster-from");
        Observations memory = cluster()
                .voter("a")
                .unreadyVoter("b")
                .unreadyVoter("c")
                .etcdView(UNREACHABLE)
                .memory()
                .lost("b")
                .lost("c");
        assertThat(planner.next(memory.build(), 3).reason()).isEqualTo(Reason.QUORUM_LOST);
        Observations none = cluster()
                .unreadyVoter("a")
                .unreadyVoter("b")
                .unreadyVoter("c")
                .etcdView(UNREACHABLE)
                .broken("a", true)
                .broken("b", true)
                .broken("c", true);
        Step allLost = planner.next(none.build(), 3);
        assertThat(allLost.reason()).isEqualTo(Reason.ALL_MEMBERS_LOST);
        assertThat(((Step.Wait) allLost).detail())
                .contains("spec.bootstrap.restore")
                .contains("reset-empty=");
    }

    /** etcd-guard restarts a memory survivor in its own Pod: the only way its data survives --force-new-cluster. */
    @Test
    void aMemoryMajorityLostWithOneSurvivorBehindTheGuardIsRecoveredInPlace() {
        Observations memory = cluster()
                .voter("a")
                .unreadyVoter("b")
                .unreadyVoter("c")
                .etcdView(UNREACHABLE)
                .memory()
                .guarded()
                .lost("b")
                .lost("c");
        assertThat(planner.next(memory.build(), 3))
                .isEqualTo(new QuorumLossSteps.StartQuorumRecovery("a", List.of("b", "c")));
        assertThat(planner.next(memory.maintenance(asked("a", null)).build(), 3))
                .isEqualTo(new QuorumLossSteps.ForceNewCluster("a", true));

        EtcdView alone = new EtcdView.Reached(new Membership(
                Observations.CLUSTER, List.of(new Member(id("a"), "a", List.of(peer("a")), List.of(), false))));
        Observations done =
                cluster().voter("a").etcdView(alone).memory().guarded().maintenance(asked("a", "a"));
        assertThat(planner.next(done.build(), 3)).isEqualTo(new QuorumLossSteps.EndForceNewCluster("a", true));
    }

    @Test
    void aMemorySurvivorWithoutTheGuardIsRefused() {
        Observations memory = lostTwoOfThree().memory().maintenance(asked("a", null));
        assertThat(((Step.Wait) planner.next(memory.build(), 3)).detail()).contains("no etcd-guard");
    }

    @Test
    void theOldMembershipStillListedMeansTheFlagHasNotTakenEffect() {
        Observations o = cluster().voter("a").voter("b").voter("c").leader("a").maintenance(asked("a", "a"));
        assertThat(((Step.Wait) planner.next(o.build(), 3)).detail()).contains("still lists 3 members");
    }

    /** EndForceNewCluster removes the mark, restarts the Pod, removes the annotation: a crash after any write resumes. */
    @Test
    void anEndCutShortResumesWhereItStopped() {
        EtcdView alone = new EtcdView.Reached(new Membership(
                Observations.CLUSTER, List.of(new Member(id("a"), "a", List.of(peer("a")), List.of(), false))));
        Observations markGone = cluster()
                .voter("a")
                .etcdView(alone)
                .outdated("a", RestartReason.SPEC_CHANGED)
                .maintenance(asked("a", null));
        assertThat(planner.next(markGone.build(), 3)).isEqualTo(new QuorumLossSteps.EndForceNewCluster("a", false));
        Observations restarted = cluster().voter("a").etcdView(alone).maintenance(asked("a", null));
        assertThat(planner.next(restarted.build(), 3)).isEqualTo(new QuorumLossSteps.ClearRecoveryRequest("a"));
        Observations withOthers =
                cluster().voter("a").voter("b").voter("c").leader("a").maintenance(asked("a", null));
        assertThat(planner.next(withOthers.build(), 3).reason()).isEqualTo(Reason.QUORUM_RECOVERY_REFUSED);
    }

    /** ForceNewCluster marks the member, then restarts it: a crash between the two repeats the step. */
    @Test
    void aForceCutShortAfterTheMarkIsCarriedOutAgain() {
        Maintenance cut = new Maintenance(
                List.of(),
                Maintenance.DEFAULT_QUOTA,
                Optional.empty(),
                Optional.of(new QuorumRecovery("a", Optional.of("a"), false)));
        assertThat(planner.next(lostTwoOfThree().maintenance(cut).build(), 3))
                .isEqualTo(new QuorumLossSteps.ForceNewCluster("a"));
        assertThat(planner.next(lostTwoOfThree().maintenance(asked("a", "a")).build(), 3)
                        .reason())
                .isEqualTo(Reason.QUORUM_RECOVERY);
    }
}
