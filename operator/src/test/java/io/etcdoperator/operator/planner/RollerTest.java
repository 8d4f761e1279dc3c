package io.etcdoperator.operator.planner;

import static io.etcdoperator.operator.planner.Observations.cluster;
import static io.etcdoperator.operator.planner.Observations.id;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.reason.RestartReason;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The roll decisions of the cluster planner: order, leader last, one at a time, quorum and health gates. */
class RollerTest {

    private static final RestartReason VERSION = RestartReason.VERSION_CHANGED;
    private final ClusterPlanner planner = new ClusterPlanner();

    private Step next(Observations o, int desired) {
        return planner.next(o.build(), desired);
    }

    private static Observations threeVoters() {
        return cluster().voter("demo-a").voter("demo-b").voter("demo-c");
    }

    @Nested
    class PvcMembers {
        @Test
        void followersRestartFirstByNameTheLeaderLast() {
            Observations o = threeVoters()
                    .leader("demo-a")
                    .outdated("demo-a", VERSION)
                    .outdated("demo-b", VERSION)
                    .outdated("demo-c", VERSION);
            assertThat(next(o, 3)).isEqualTo(new Step.RestartMember("demo-b", VERSION));
        }

        @Test
        void theLeaderHandsLeadershipToAnUpToDateVoterBeforeItRestarts() {
            Observations o = threeVoters().leader("demo-b").outdated("demo-b", VERSION);
            assertThat(next(o, 3)).isEqualTo(new Step.MoveLeader("demo-b", "demo-a", id("demo-a")));
        }

        @Test
        void onceLeadershipMovedTheFormerLeaderRestarts() {
            Observations o = threeVoters().leader("demo-a").outdated("demo-b", VERSION);
            assertThat(next(o, 3)).isEqualTo(new Step.RestartMember("demo-b", VERSION));
        }

        @Test
        void aMemberThatIsDownAnywayRestartsFirstWithoutAnyGate() {
            Observations o = cluster()
                    .voter("demo-a")
                    .unreadyVoter("demo-b")
                    .voter("demo-c")
                    .leader("demo-a")
                    .outdated("demo-a", VERSION)
                    .outdated("demo-b", VERSION)
                    .outdated("demo-c", VERSION);
            assertThat(next(o, 3)).isEqualTo(new Step.RestartMember("demo-b", VERSION));
        }

        @Test
        void aHealthyMemberWaitsWhileAnotherVoterIsDown() {
            Observations o = cluster()
                    .voter("demo-a")
                    .unreadyVoter("demo-b")
                    .voter("demo-c")
                    .leader("demo-a")
                    .outdated("demo-c", VERSION);
            Step step = next(o, 3);
            assertThat(step).isInstanceOf(Step.Wait.class);
            assertThat(step.reason()).isEqualTo(Reason.ROLL_WAITING_FOR_HEALTH);
        }

        @Test
        void theNextMemberWaitsUntilTheRestartedOneRunsItsSpecVersion() {
            Observations o =
                    threeVoters().leader("demo-a").runs("demo-b", "3.4.23").outdated("demo-c", VERSION);
            Step step = next(o, 3);
            assertThat(step.reason()).isEqualTo(Reason.ROLL_WAITING_FOR_HEALTH);
            assertThat(((Step.Wait) step).detail()).contains("demo-b");
        }

        @Test
        void theNextMemberWaitsUntilTheRestartedOneHasBeenReadyForTheMinimum() {
            Instant now = Instant.parse("2026-11-27T12:00:00Z");
            Observations o = threeVoters()
                    .leader("demo-a")
                    .readySince("demo-b", now.minusSeconds(4))
                    .outdated("demo-c", VERSION)
                    .at(now);
            Step step = next(o, 3);
            assertThat(step)
                    .isEqualTo(new Step.Wait(
                            Reason.ROLL_WAITING_FOR_HEALTH,
                            "demo-c waits until demo-b has been ready for 10 s",
                            Duration.ofSeconds(6)));
            assertThat(next(o.at(now.plusSeconds(6)), 3)).isEqualTo(new Step.RestartMember("demo-c", VERSION));
            assertThat(new ClusterPlanner(Duration.ZERO).next(o.at(now).build(), 3))
                    .as("no window asked")
                    .isEqualTo(new Step.RestartMember("demo-c", VERSION));
        }

        @Test
        void aMemberWhoseEtcdWasOomKilledInItsPodMustStandFiveMinutesBeforeTheRollGoesOn() {
            Instant now = Instant.parse("2026-11-27T12:00:00Z");
            Observations o = threeVoters()
                    .leader("demo-a")
                    .readySince("demo-b", now.minusSeconds(60), true)
                    .outdated("demo-c", VERSION)
                    .at(now);
            assertThat(next(o, 3))
                    .isEqualTo(new Step.Wait(
                            Reason.ROLL_WAITING_FOR_HEALTH,
                            "demo-c waits until demo-b has "
                                    + "been ready for 300 s: its etcd was OOM-killed in this Pod",
                            Duration.ofSeconds(240)));
            assertThat(next(o.at(now.plusSeconds(240)), 3)).isEqualTo(new Step.RestartMember("demo-c", VERSION));
            assertThat(new ClusterPlanner(Duration.ZERO).next(o.at(now).build(), 3))
                    .as("the wait turned off")
                    .isEqualTo(new Step.RestartMember("demo-c", VERSION));
        }

        @Test
        void aRestartedMemberThatFallsOverInsideTheWindowStopsTheRoll() {
            Instant now = Instant.parse("2026-11-27T12:00:00Z");
            Observations o = cluster()
                    .voter("demo-a")
                    .unreadyVoter("demo-b")
                    .voter("demo-c")
                    .leader("demo-a")
                    .broken("demo-b", false)
                    .outdated("demo-c", VERSION)
                    .at(now);
            Step step = next(o, 3);
            assertThat(step).isInstanceOf(Step.Wait.class);
            assertThat(((Step.Wait) step).detail()).startsWith("the roll stops: ");
        }

        @Test
        void aSingleMemberRestartsSinceThereIsNoQuorumToProtect() {
            Observations o = cluster().voter("demo-a").leader("demo-a").outdated("demo-a", RestartReason.SPEC_CHANGED);
            assertThat(next(o, 1)).isEqualTo(new Step.RestartMember("demo-a", RestartReason.SPEC_CHANGED));
        }

        @Test
        void twoVotersNeverRestartAHealthyOneSinceTheOtherAloneIsNoQuorum() {
            Observations o =
                    cluster().voter("demo-a").voter("demo-b").leader("demo-a").outdated("demo-b", VERSION);
            assertThat(next(o, 2).reason()).isEqualTo(Reason.QUORUM_AT_RISK);
        }
    }

    @Nested
    class MemoryMembers {
        @Test
        void anOutdatedMemoryMemberIsReplacedNeverRestarted() {
            Observations o = threeVoters()
                    .memory()
                    .leader("demo-a")
                    .outdated("demo-a", VERSION)
                    .outdated("demo-b", VERSION)
                    .outdated("demo-c", VERSION);
            assertThat(next(o, 3)).isEqualTo(new Step.ReplaceMember("demo-b", VERSION));
        }

        @Test
        void theSurplusOutdatedMemberIsRetiredOnceItsReplacementIsAReadyVoter() {
            Observations o = threeVoters()
                    .voter("demo-d")
                    .memory()
                    .leader("demo-a")
                    .outdated("demo-b", VERSION)
                    .outdated("demo-c", VERSION);
            assertThat(next(o, 3)).isEqualTo(new Step.RetireMember("demo-c", VERSION));
        }

        @Test
        void anOutdatedLeaderHandsOverToItsReplacementBeforeItIsRetired() {
            Observations o =
                    threeVoters().voter("demo-d").memory().leader("demo-c").outdated("demo-c", VERSION);
            assertThat(next(o, 3)).isEqualTo(new Step.MoveLeader("demo-c", "demo-a", id("demo-a")));
        }

        @Test
        void anUpToDateTransfereeIsPreferredOverAnOutdatedOne() {
            Observations o = threeVoters()
                    .voter("demo-d")
                    .memory()
                    .leader("demo-c")
                    .outdated("demo-a", VERSION)
                    .outdated("demo-c", VERSION);
            assertThat(next(o, 3)).isEqualTo(new Step.MoveLeader("demo-c", "demo-b", id("demo-b")));
        }

        @Test
        void retiringWaitsUntilTheReplacementHasBeenReadyForTheMinimum() {
            Instant now = Instant.parse("2026-11-27T12:00:00Z");
            Observations o = threeVoters()
                    .voter("demo-d")
                    .memory()
                    .leader("demo-a")
                    .outdated("demo-c", VERSION)
                    .readySince("demo-d", now.minusSeconds(1))
                    .at(now);
            assertThat(next(o, 3))
                    .isEqualTo(new Step.Wait(
                            Reason.ROLL_WAITING_FOR_HEALTH,
                            "demo-c waits until demo-d has been ready for 10 s",
                            Duration.ofSeconds(9)));
        }

        @Test
        void retiringWaitsForTheReplacementToBeReady() {
            Observations o = threeVoters()
                    .unreadyVoter("demo-d")
                    .memory()
                    .leader("demo-a")
                    .outdated("demo-c", VERSION);
            assertThat(next(o, 3).reason()).isEqualTo(Reason.MEMBERS_NOT_READY);
        }

        @Test
        void aDownOutdatedMemoryMemberGoesFirstWhenQuorumSurvivesIt() {
            Observations o = cluster()
                    .voter("demo-a")
                    .unreadyVoter("demo-b")
                    .voter("demo-c")
                    .memory()
                    .leader("demo-a")
                    .outdated("demo-b", VERSION)
                    .outdated("demo-c", VERSION);
            assertThat(next(o, 3)).isEqualTo(new Step.RetireMember("demo-b", VERSION));
        }

        @Test
        void aLostMemoryMemberIsRemovedSoItNeverStartsUnderItsOldIdentity() {
            Observations o = cluster()
                    .voter("demo-a")
                    .unreadyVoter("demo-b")
                    .voter("demo-c")
                    .memory()
                    .lost("demo-b");
            assertThat(next(o, 3)).isEqualTo(new Step.RemoveLostMember("demo-b"));
        }
    }

    @Nested
    class OneSlot {
        @Test
        void aJoiningMemberFinishesBeforeAnyRoll() {
            Observations o = threeVoters().pending("demo-d").leader("demo-a").outdated("demo-b", VERSION);
            assertThat(next(o, 4)).isInstanceOf(Step.AddLearner.class);
        }

        @Test
        void aLearnerIsPromotedBeforeAnyRoll() {
            Observations o =
                    threeVoters().learner("demo-d", true).leader("demo-a").outdated("demo-b", VERSION);
            assertThat(next(o, 4)).isEqualTo(new Step.PromoteLearner("demo-d", id("demo-d"), Optional.of("demo-a")));
        }

        @Test
        void scaleDownGoesBeforeTheRollAndTakesAnOutdatedMemberFirst() {
            Observations o = threeVoters().voter("demo-d").leader("demo-a").outdated("demo-b", VERSION);
            assertThat(next(o, 3)).isEqualTo(new Step.RetireMember("demo-b", VERSION));
        }

        @Test
        void scaleDownMovesLeadershipOffTheVictimFirst() {
            Observations o = threeVoters().voter("demo-d").leader("demo-d");
            assertThat(next(o, 3)).isEqualTo(new Step.MoveLeader("demo-d", "demo-a", id("demo-a")));
        }

        @Test
        void anotherClusterIdInEtcdsAnswerStopsEveryMembershipChange() {
            Observations o = threeVoters()
                    .voter("demo-d")
                    .leader("demo-a")
                    .etcdView(new EtcdView.Reached(new Membership(new ClusterId(0xbad), List.of())));
            assertThat(next(o, 3).reason()).isEqualTo(Reason.CLUSTER_ID_MISMATCH);
        }

        @Test
        void theReplacementOfAMemoryMemberIsNotMistakenForAScaleUpThatWasReverted() {
            Observations o = threeVoters()
                    .learner("demo-d", false)
                    .memory()
                    .leader("demo-a")
                    .outdated("demo-b", VERSION);
            assertThat(next(o, 3).reason()).isEqualTo(Reason.LEARNER_CATCHING_UP);
        }

        @Test
        void aLearnerThatNeverStartedIsRemovedWhenTheScaleUpIsReverted() {
            Observations o = threeVoters().learner("demo-d", false).leader("demo-a");
            assertThat(next(o, 3)).isEqualTo(new Step.RemoveMember("demo-d"));
            assertThat(next(threeVoters().learner("demo-d", false).leader("demo-a"), 4)
                            .reason())
                    .isEqualTo(Reason.LEARNER_CATCHING_UP);
        }

        @Test
        void scaleDownRemovesABrokenMemberBeforeAHealthyOne() {
            Observations o = cluster()
                    .voter("demo-a")
                    .unreadyVoter("demo-b")
                    .voter("demo-c")
                    .voter("demo-d")
                    .leader("demo-a");
            assertThat(next(o, 3)).isEqualTo(new Step.RemoveMember("demo-b"));
        }

        @Test
        void volumesGrowOneMemberAtATimeOnceNothingElseIsToDo() {
            assertThat(next(
                            threeVoters()
                                    .leader("demo-a")
                                    .volumeBehind("demo-c")
                                    .volumeBehind("demo-b"),
                            3))
                    .isEqualTo(new Step.ExpandVolume("demo-b"));
            assertThat(next(
                            threeVoters()
                                    .leader("demo-a")
                                    .volumeBehind("demo-b")
                                    .outdated("demo-c", VERSION),
                            3))
                    .isEqualTo(new Step.RestartMember("demo-c", VERSION));
        }

        @Test
        void authIsEnabledOnlyOnceNothingIsLeftToRoll() {
            var wanted = new ObservedCluster.AuthView(true, false, Optional.of(false));
            assertThat(next(threeVoters().leader("demo-a").auth(wanted).outdated("demo-b", VERSION), 3))
                    .isEqualTo(new Step.RestartMember("demo-b", VERSION));
            assertThat(next(threeVoters().leader("demo-a").auth(wanted), 3)).isEqualTo(new Step.EnableAuth());
        }

        @Test
        void authAlreadyOnInEtcdIsLatchedBeforeAnythingElse() {
            var already = new ObservedCluster.AuthView(true, false, Optional.of(true));
            assertThat(next(threeVoters().leader("demo-a").auth(already).outdated("demo-b", VERSION), 3))
                    .isEqualTo(new Step.LatchAuth());
        }

        @Test
        void aLatchedAuthIsNeverEnabledAgain() {
            var latched = new ObservedCluster.AuthView(true, true, Optional.empty());
            assertThat(next(threeVoters().leader("demo-a").auth(latched), 3)).isInstanceOf(Step.Converged.class);
        }
    }

    @Test
    void aFormedSeedStillStartingNewRestartsWhileAloneBeforeAnyoneJoins() {
        Observations alone =
                cluster().voter("demo-a").leader("demo-a").outdated("demo-a", RestartReason.CLUSTER_FORMED);
        assertThat(next(alone, 3)).isEqualTo(new Step.RestartMember("demo-a", RestartReason.CLUSTER_FORMED));
        Observations restarting = cluster().unreadyVoter("demo-a").outdated("demo-a", RestartReason.CLUSTER_FORMED);
        assertThat(next(restarting, 3)).isNotInstanceOf(Step.RestartMember.class);
    }
}
