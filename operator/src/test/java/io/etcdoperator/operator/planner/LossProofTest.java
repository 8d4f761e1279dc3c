package io.etcdoperator.operator.planner;

import static io.etcdoperator.operator.planner.Observations.cluster;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.planner.Maintenance.QuorumRecovery;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.reason.RestartReason;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Repairs only on proof: a step that discards a member, a volume or a membership needs its sign of lost data seen in
 * two passes (and a refusing container refused again); suspicion is reported and waits.
 */
class LossProofTest {

    private static final EtcdView UNREACHABLE = new EtcdView.Unreachable(Reason.CLUSTER_UNREACHABLE, "no leader");
    private static final Instant NOW = Instant.parse("2026-11-27T07:00:00Z");
    private final ClusterPlanner planner = new ClusterPlanner();

    private static Maintenance asked(String from) {
        return new Maintenance(
                List.of(),
                Maintenance.DEFAULT_QUOTA,
                Optional.empty(),
                Optional.of(new QuorumRecovery(from, Optional.empty())));
    }

    @Test
    void aMemoryPodSeenGoneOnceIsNotYetReplaced() {
        Observations o = cluster()
                .voter("a")
                .voter("b")
                .unreadyVoter("c")
                .leader("a")
                .memory()
                .lost("c")
                .at(NOW);
        assertThat(planner.next(o.firstSeen("c").build(), 3).reason()).isEqualTo(Reason.MEMBER_LOST);
        assertThat(planner.next(o.firstSeen("c").build(), 3)).isInstanceOf(Step.Wait.class);
        Observations proven = cluster()
                .voter("a")
                .voter("b")
                .unreadyVoter("c")
                .leader("a")
                .memory()
                .lost("c")
                .at(NOW);
        assertThat(planner.next(proven.build(), 3)).isEqualTo(new Step.RemoveLostMember("c"));
    }

    @Test
    void oneGuardRefusalIsSuspicionAndOnlyARepeatedOneIsProof() {
        Observations once = cluster()
                .voter("a")
                .voter("b")
                .unreadyVoter("c")
                .leader("a")
                .broken("c", true)
                .at(NOW)
                .firstSeen("c");
        Step waiting = planner.next(once.build(), 3);
        assertThat(waiting.reason()).isEqualTo(Reason.DATA_LOST);
        assertThat(((Step.Wait) waiting).detail()).contains("waiting for its next start");
        Observations again = cluster()
                .voter("a")
                .voter("b")
                .unreadyVoter("c")
                .leader("a")
                .broken("c", true)
                .at(NOW);
        assertThat(planner.next(again.build(), 3)).isInstanceOf(Step.ReplaceBrokenMember.class);
    }

    @Test
    void aMajorityOfMemoryPodsSeenGoneOnceForcesNothing() {
        Observations o = cluster()
                .voter("a")
                .unreadyVoter("b")
                .unreadyVoter("c")
                .etcdView(UNREACHABLE)
                .memory()
                .guarded()
                .lost("b")
                .lost("c")
                .at(NOW)
                .firstSeen("b");
        Step step = planner.next(o.build(), 3);
        assertThat(step.reason()).isEqualTo(Reason.QUORUM_LOST);
        assertThat(step).isInstanceOf(Step.Wait.class);
    }

    /** The Pods of the label-edit case are found by owner reference: members that show no loss are never "gone". */
    @Test
    void membersOnlyUnreachableAreNeverDiscarded() {
        Observations o = cluster()
                .voter("a")
                .unreadyVoter("b")
                .unreadyVoter("c")
                .etcdView(UNREACHABLE)
                .memory()
                .guarded()
                .podReady("b")
                .podReady("c")
                .at(NOW);
        assertThat(planner.next(o.build(), 3)).isInstanceOf(Step.Wait.class);
    }

    @Test
    void aManualRequestIsRefusedWhileAMajorityOfVoterPodsIsReady() {
        Observations o = cluster()
                .unreadyVoter("a")
                .unreadyVoter("b")
                .unreadyVoter("c")
                .etcdView(new EtcdView.Unreachable(
                        Reason.CLUSTER_UNREACHABLE, "x509: certificate signed by unknown authority"))
                .podReady("a")
                .podReady("b")
                .maintenance(asked("a"))
                .at(NOW);
        Step step = planner.next(o.build(), 3);
        assertThat(step.reason()).isEqualTo(Reason.QUORUM_RECOVERY_REFUSED);
        assertThat(((Step.Wait) step).detail())
                .contains("2/3 voter Pods are Ready")
                .contains("x509");
        Observations down = cluster()
                .unreadyVoter("a")
                .unreadyVoter("b")
                .unreadyVoter("c")
                .etcdView(UNREACHABLE)
                .podReady("a")
                .maintenance(asked("a"))
                .at(NOW);
        assertThat(planner.next(down.build(), 3)).isEqualTo(new QuorumLossSteps.ForceNewCluster("a", false));
    }

    @Test
    void aManualRequestNamingAMemoryMemberWhosePodIsGoneSaysItsDataIsLost() {
        Observations o = cluster()
                .unreadyVoter("a")
                .unreadyVoter("b")
                .unreadyVoter("c")
                .etcdView(UNREACHABLE)
                .memory()
                .guarded()
                .lost("a")
                .maintenance(asked("a"))
                .at(NOW);
        Step step = planner.next(o.build(), 3);
        assertThat(step.reason()).isEqualTo(Reason.QUORUM_RECOVERY_REFUSED);
        assertThat(((Step.Wait) step).detail()).contains("its data is lost").doesNotContain("etcd-guard");
    }

    @Test
    void everyMemoryMemberLostIsReportedWithBothWaysOutAndNothingIsStarted() {
        Observations o = cluster()
                .unreadyVoter("a")
                .unreadyVoter("b")
                .unreadyVoter("c")
                .etcdView(UNREACHABLE)
                .memory()
                .guarded()
                .lost("a")
                .lost("b")
                .lost("c")
                .at(NOW)
                .recourse(new ObservedCluster.Recourse(Optional.of("nightly-42"), false));
        Step step = planner.next(o.build(), 3);
        assertThat(step.reason()).isEqualTo(Reason.ALL_MEMBERS_LOST);
        assertThat(((Step.Wait) step).detail())
                .contains("data of etcd cluster")
                .contains("is gone")
                .contains("EtcdSnapshot nightly-42")
                .contains("reset-empty=" + Observations.CLUSTER);
    }

    @Test
    void aResetAskedForReleasesEveryMemberThenForgetsTheLostCluster() {
        Observations o = cluster()
                .unreadyVoter("a")
                .unreadyVoter("b")
                .unreadyVoter("c")
                .etcdView(UNREACHABLE)
                .memory()
                .lost("a")
                .lost("b")
                .lost("c")
                .at(NOW)
                .recourse(new ObservedCluster.Recourse(Optional.empty(), true));
        assertThat(planner.next(o.build(), 3)).isEqualTo(new QuorumLossSteps.ReleaseAllMembers(List.of("a", "b", "c")));
        Observations none =
                cluster().etcdView(UNREACHABLE).at(NOW).recourse(new ObservedCluster.Recourse(Optional.empty(), true));
        assertThat(planner.next(none.build(), 3)).isEqualTo(new QuorumLossSteps.ForgetCluster(Observations.CLUSTER));
        Observations notAsked = cluster().etcdView(UNREACHABLE).at(NOW);
        assertThat(planner.next(notAsked.build(), 3).reason()).isEqualTo(Reason.ALL_MEMBERS_LOST);
    }

    /** OOMKilled stops the roll with its cause named; the corrected spec restarts the member at once. */
    @Test
    void aCrashLoopStopsTheRollAndTheCorrectedSpecRestartsTheMemberAtOnce() {
        Observations rolling = cluster()
                .voter("a")
                .voter("b")
                .unreadyVoter("c")
                .leader("a")
                .outdated("a", RestartReason.SPEC_CHANGED)
                .outdated("b", RestartReason.SPEC_CHANGED)
                .broken("c", false)
                .at(NOW);
        Step stopped = planner.next(rolling.build(), 3);
        assertThat(stopped.reason()).isEqualTo(Reason.MEMBER_CRASH_LOOPING);
        assertThat(((Step.Wait) stopped).detail()).contains("the roll stops").contains("c crash-loops");
        Observations fixed = cluster()
                .voter("a")
                .voter("b")
                .unreadyVoter("c")
                .leader("a")
                .outdated("c", RestartReason.SPEC_CHANGED)
                .broken("c", false)
                .at(NOW);
        assertThat(planner.next(fixed.build(), 3)).isEqualTo(new Step.RestartMember("c", RestartReason.SPEC_CHANGED));
    }

    @Test
    void aVoterWhosePodCannotBeScheduledIsReplacedOnlyAfterTheProgressDeadline() {
        Observations early = cluster()
                .voter("a")
                .voter("b")
                .unreadyVoter("c")
                .leader("a")
                .unschedulable("c", NOW.minusSeconds(60))
                .at(NOW);
        Step waiting = planner.next(early.build(), 3);
        assertThat(waiting.reason()).isEqualTo(Reason.POD_UNSCHEDULABLE);
        assertThat(((Step.Wait) waiting).detail()).contains("60 s").contains("0/3 nodes");
        Observations late = cluster()
                .voter("a")
                .voter("b")
                .unreadyVoter("c")
                .leader("a")
                .unschedulable("c", NOW.minusSeconds(601))
                .at(NOW);
        assertThat(planner.next(late.build(), 3)).isInstanceOf(Step.ReplaceUnrunnableMember.class);
        Observations noQuorum = cluster()
                .voter("a")
                .unreadyVoter("b")
                .unreadyVoter("c")
                .leader("a")
                .unschedulable("c", NOW.minusSeconds(601))
                .at(NOW);
        assertThat(planner.next(noQuorum.build(), 3)).isNotInstanceOf(Step.ReplaceUnrunnableMember.class);
    }

    @Test
    void aCrashLoopOnTheLatchedTargetIsTheTargetsFaultNotAnOutdatedPods() {
        Observations onTarget = cluster()
                .voter("a")
                .voter("b")
                .unreadyVoter("c")
                .broken("c", false)
                .outdated("a", RestartReason.SPEC_CHANGED);
        assertThat(onTarget.build().targetCrashLoops()).isTrue();
        Observations outdated = cluster()
                .voter("a")
                .voter("b")
                .unreadyVoter("c")
                .broken("c", false)
                .outdated("c", RestartReason.SPEC_CHANGED);
        assertThat(outdated.build().targetCrashLoops())
                .as("its Pod is from before: rolling it may fix it")
                .isFalse();
        Observations lostData =
                cluster().voter("a").voter("b").unreadyVoter("c").broken("c", true);
        assertThat(lostData.build().targetCrashLoops()).isFalse();
    }

    /** Volumes are kept; only the retention the user set lets one go, and only on a converged cluster. */
    @Test
    void aReleasedVolumeGoesOnlyAfterTheRetentionTheUserSet() {
        Observations expired = cluster()
                .voter("a")
                .voter("b")
                .voter("c")
                .leader("a")
                .at(NOW)
                .retained("data-old", NOW.minusSeconds(1));
        assertThat(planner.next(expired.build(), 3)).isEqualTo(new Step.DeleteRetainedVolume("data-old"));
        Observations kept = cluster()
                .voter("a")
                .voter("b")
                .voter("c")
                .leader("a")
                .at(NOW)
                .retained("data-old", NOW.plusSeconds(60))
                .retained("data-forever", null);
        assertThat(planner.next(kept.build(), 3)).isInstanceOf(Step.Converged.class);
        Observations busy = cluster()
                .voter("a")
                .voter("b")
                .unreadyVoter("c")
                .leader("a")
                .at(NOW)
                .retained("data-old", NOW.minusSeconds(1));
        assertThat(planner.next(busy.build(), 3)).isNotInstanceOf(Step.DeleteRetainedVolume.class);
    }
}
