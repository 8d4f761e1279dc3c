package io.etcdoperator.operator.planner;

import static io.etcdoperator.operator.planner.Observations.cluster;
import static io.etcdoperator.operator.planner.Observations.id;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.planner.Step.Wait;
import io.etcdoperator.operator.reason.Reason;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ClusterPlannerTest {

    private final ClusterPlanner planner = new ClusterPlanner();

    private Step next(Observations o, int desired) {
        return planner.next(o.build(), desired);
    }

    private static Reason waitReason(Step step) {
        assertThat(step).isInstanceOf(Wait.class);
        return step.reason();
    }

    @Nested
    class Bootstrap {
        @Test
        void freshClusterCreatesExactlyOneSeed() {
            assertThat(next(cluster().notFormed().etcdView(EtcdView.NOT_ASKED), 3))
                    .isEqualTo(new Step.CreateSeed());
        }

        @Test
        void pausedFromTheStartNeverBootstraps() {
            assertThat(next(cluster().notFormed(), 0)).isEqualTo(new Step.Converged(Reason.PAUSED_FROM_START));
        }

        @Test
        void pendingSeedGetsAnInitialClusterOfItselfOnly() {
            Step step = next(cluster().notFormed().seed("demo-a", true, false).etcdView(EtcdView.NOT_ASKED), 3);
            assertThat(step).isEqualTo(new Step.CompleteSeed("demo-a", "demo-a=http://demo-a.demo.default.svc:2380"));
        }

        @Test
        void seedWithoutPodIsWaitedFor() {
            Step step = next(cluster().notFormed().seed("demo-a", false, false).etcdView(EtcdView.NOT_ASKED), 3);
            assertThat(waitReason(step)).isEqualTo(Reason.WAITING_FOR_SEED);
        }

        @Test
        void clusterIdLatchesOnlyWhenTheSeedIsTheSoleMember() {
            var alone = new Membership(
                    Observations.CLUSTER,
                    List.of(new Member(
                            id("demo-a"), "demo-a", List.of(Observations.peer("demo-a")), List.of(), false)));
            Step step =
                    next(cluster().notFormed().seed("demo-a", false, true).etcdView(new EtcdView.Reached(alone)), 3);
            assertThat(step).isEqualTo(new Step.LatchClusterId(Observations.CLUSTER));

            var crowded = new Membership(
                    Observations.CLUSTER,
                    List.of(
                            alone.members().get(0),
                            new Member(id("x"), "x", List.of(Observations.peer("x")), List.of(), false)));
            Step refused =
                    next(cluster().notFormed().seed("demo-a", false, true).etcdView(new EtcdView.Reached(crowded)), 3);
            assertThat(waitReason(refused)).isEqualTo(Reason.WAITING_FOR_SEED);
        }

        @Test
        void unreachableSeedReportsItsReason() {
            Step step = next(
                    cluster()
                            .notFormed()
                            .seed("demo-a", false, true)
                            .etcdView(new EtcdView.Unreachable(
                                    Reason.AUTH_REQUIRED_NOT_CONFIGURED, "user name is empty")),
                    3);
            assertThat(waitReason(step)).isEqualTo(Reason.AUTH_REQUIRED_NOT_CONFIGURED);
        }

        @Test
        void seedOfAnotherIncarnationIsNotAdopted() {
            ObservedCluster withForeignSeed = new ObservedCluster(
                    Optional.empty(),
                    List.of(new ObservedMember(
                            "demo-old",
                            Instant.EPOCH,
                            true,
                            false,
                            false,
                            false,
                            true,
                            true,
                            true,
                            Optional.empty(),
                            Observations.peer("demo-old"),
                            false)),
                    EtcdView.NOT_ASKED);
            assertThat(waitReason(planner.next(withForeignSeed, 3))).isEqualTo(Reason.FOREIGN_MEMBER);
        }
    }

    @Nested
    class ScaleUp {
        @Test
        void createsOneMemberWhenAllAreReadyAndAddsItInTheSameStep() {
            Step step = next(cluster().voter("a"), 3);
            assertThat(step).isInstanceOf(Step.CreateMember.class);
            // the joiner's name comes from the API server: the step carries the peers, the executor adds the name
            assertThat(((Step.CreateMember) step).addAtOnce().orElseThrow().with("b", Observations.peer("b")))
                    .as("what AddLearner for a pending b would carry (next test)")
                    .isEqualTo("a=http://a.demo.default.svc:2380,b=http://b.demo.default.svc:2380");
        }

        @Test
        void aNewMemberIsNotAddedAtOnceWhileALearnerIsInFlight() {
            Step step = next(cluster().voter("a").voter("b").learner("c", false).voter("d"), 5);
            assertThat(step).isNotInstanceOf(Step.CreateMember.class);
            assertThat(new Step.CreateMember().addAtOnce()).isEmpty();
        }

        @Test
        void waitsForUnreadyMembersBeforeGrowing() {
            assertThat(waitReason(next(cluster().voter("a").unreadyVoter("b"), 3)))
                    .isEqualTo(Reason.MEMBERS_NOT_READY);
        }

        @Test
        void pendingMemberIsAddedAsLearnerWithTheInitialClusterItWillStartWith() {
            // the same string the planner writes when a crash came between the add and the write (next test)
            assertThat(next(cluster().voter("a").pending("b"), 3))
                    .isEqualTo(new Step.AddLearner(
                            "b",
                            Observations.peer("b"),
                            "a=http://a.demo.default.svc:2380,b=http://b.demo.default.svc:2380"));
        }

        @Test
        void crashBetweenAddAndWriteSkipsTheAddAndWritesInitialCluster() {
            Step step = next(cluster().voter("a").addedButUnwritten("b"), 3);
            assertThat(step)
                    .isEqualTo(new Step.WriteInitialCluster(
                            "b", "a=http://a.demo.default.svc:2380,b=http://b.demo.default.svc:2380"));
        }

        @Test
        void startedLearnerIsPromoted() {
            assertThat(next(cluster().voter("a").learner("b", true), 3))
                    .isEqualTo(new Step.PromoteLearner("b", id("b")));
        }

        @Test
        void aLearnerIsPromotedThroughTheLeaderThisPassSaw() {
            assertThat(next(cluster().voter("a").voter("b").learner("c", true).leader("b"), 3))
                    .isEqualTo(new Step.PromoteLearner("c", id("c"), Optional.of("b")));
        }

        @Test
        void learnerWhosePodHasNotStartedIsWaitedFor() {
            assertThat(waitReason(next(cluster().voter("a").learner("b", false), 3)))
                    .isEqualTo(Reason.LEARNER_CATCHING_UP);
        }

        @Test
        void lastLearnerIsPromotedEvenWhenCountMatches() {
            assertThat(next(cluster().voter("a").voter("b").learner("c", true), 3))
                    .isEqualTo(new Step.PromoteLearner("c", id("c")));
        }

        @Test
        void secondJoinerWaitsForTheFirstLearner() {
            Step step = next(cluster().voter("a").learner("b", false).pending("c"), 5);
            assertThat(waitReason(step)).isEqualTo(Reason.LEARNER_CATCHING_UP);
        }
    }

    @Nested
    class ScaleDown {
        @Test
        void removesTheNewestMember() {
            assertThat(next(cluster().voter("a").voter("b").voter("c"), 1)).isEqualTo(new Step.RemoveMember("c"));
        }

        @Test
        void refusesARemovalThatWouldLoseQuorum() {
            // 3 voters, 2 unready: removing the ready newest leaves 0 of 2 ready.
            Step step = next(cluster().unreadyVoter("a").unreadyVoter("b").voter("c"), 1);
            assertThat(waitReason(step)).isEqualTo(Reason.QUORUM_AT_RISK);
        }

        @Test
        void removingAnUnreadyMemberIsAllowedWhenTheRestHoldQuorum() {
            assertThat(next(cluster().voter("a").voter("b").unreadyVoter("c"), 1))
                    .isEqualTo(new Step.RemoveMember("c"));
        }

        @Test
        void oneMemberMoreThanZeroIsPausedNotDeleted() {
            assertThat(next(cluster().voter("a"), 0)).isEqualTo(new Step.Pause("a"));
        }

        @Test
        void pausingStillScalesDownOneAtATimeFirst() {
            assertThat(next(cluster().voter("a").voter("b"), 0)).isEqualTo(new Step.RemoveMember("b"));
        }

        @Test
        void inFlightDeletionBlocksEveryOtherChange() {
            assertThat(waitReason(next(cluster().voter("a").voter("b").deleting("c"), 1)))
                    .isEqualTo(Reason.MEMBER_REMOVAL_IN_PROGRESS);
            assertThat(waitReason(next(cluster().voter("a").deleting("c"), 3)))
                    .isEqualTo(Reason.MEMBER_REMOVAL_IN_PROGRESS);
        }
    }

    @Nested
    class PauseAndResume {
        @Test
        void pausedClusterIsConverged() {
            assertThat(next(cluster().dormant("a"), 0)).isEqualTo(new Step.Converged(Reason.PAUSED));
        }

        @Test
        void resumeWakesTheDormantMember() {
            assertThat(next(cluster().dormant("a"), 3)).isEqualTo(new Step.Wake("a"));
        }

        @Test
        void noMemberLeftIsReportedNotGuessed() {
            assertThat(waitReason(next(cluster(), 3))).isEqualTo(Reason.ALL_MEMBERS_LOST);
        }
    }

    @Nested
    class Safety {
        @Test
        void unreachableEtcdMeansNoMembershipChange() {
            Step step = next(
                    cluster()
                            .voter("a")
                            .pending("b")
                            .etcdView(new EtcdView.Unreachable(Reason.CLUSTER_UNREACHABLE, "deadline exceeded")),
                    3);
            assertThat(waitReason(step)).isEqualTo(Reason.CLUSTER_UNREACHABLE);
        }

        @Test
        void orphanLearnerIsRemoved() {
            assertThat(next(cluster().voter("a").orphanInEtcd("ghost", true), 1))
                    .isEqualTo(new Step.RemoveOrphan(id("ghost"), "ghost"));
        }

        @Test
        void orphanVoterIsRemovedOnlyWhenQuorumHolds() {
            assertThat(next(cluster().voter("a").voter("b").orphanInEtcd("ghost", false), 2))
                    .isEqualTo(new Step.RemoveOrphan(id("ghost"), "ghost"));
            assertThat(waitReason(next(cluster().voter("a").unreadyVoter("b").orphanInEtcd("ghost", false), 2)))
                    .isEqualTo(Reason.QUORUM_AT_RISK);
        }

        @Test
        void foreignMemberStopsTheCluster() {
            assertThat(waitReason(next(cluster().voter("a").foreign("b"), 3))).isEqualTo(Reason.FOREIGN_MEMBER);
        }

        @Test
        void convergedWhenCountMatchesAndAllReady() {
            assertThat(next(cluster().voter("a").voter("b").voter("c"), 3))
                    .isEqualTo(new Step.Converged(Reason.RECONCILED));
        }
    }
}
