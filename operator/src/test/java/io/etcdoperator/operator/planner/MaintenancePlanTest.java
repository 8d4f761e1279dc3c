package io.etcdoperator.operator.planner;

import static io.etcdoperator.operator.planner.Observations.cluster;
import static io.etcdoperator.operator.planner.Observations.id;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.Alarm;
import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.reason.RestartReason;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The maintenance slot of the cluster planner: defrag runs, NOSPACE recovery and the CORRUPT stop. */
class MaintenancePlanTest {

    private static final long MI = 1024 * 1024;
    private static final long QUOTA = 64 * MI;
    private final ClusterPlanner planner = new ClusterPlanner();

    private static Observations threeVoters() {
        return cluster()
                .voter("demo-a")
                .voter("demo-b")
                .voter("demo-c")
                .leader("demo-a")
                .db("demo-a", 40 * MI, 10 * MI)
                .db("demo-b", 40 * MI, 10 * MI)
                .db("demo-c", 12 * MI, 10 * MI);
    }

    private static Maintenance run(DefragRun run) {
        return new Maintenance(List.of(), QUOTA, Optional.of(run));
    }

    private static DefragRun notStarted(DefragCriteria criteria) {
        return new DefragRun("defrag-1", criteria, Optional.empty(), false, Map.of());
    }

    private static DefragRun started(Map<String, DefragRun.Progress> members) {
        return new DefragRun("defrag-1", DefragCriteria.ALL, Optional.of(Instant.EPOCH), false, members);
    }

    private static DefragRun.Progress pending(boolean leader) {
        return new DefragRun.Progress("Pending", leader, 0);
    }

    private static DefragRun.Progress done(boolean leader) {
        return new DefragRun.Progress("Defragmented", leader, 1);
    }

    private static DefragCriteria freeSpaceAbove(long bytes) {
        return new DefragCriteria(false, bytes, OptionalInt.empty(), DefragCriteria.DEFAULT_MIN_RECLAIM);
    }

    @Nested
    class Rule {
        private final Step.DefragStart sample = new Step.DefragStart("x", false, false, 0, 0);

        @Test
        void freeSpaceAboveComparesReclaimableBytes() {
            DefragCriteria rule = freeSpaceAbove(20 * MI);
            assertThat(rule.wants(status(40 * MI, 10 * MI), QUOTA)).isTrue();
            assertThat(rule.wants(status(30 * MI, 10 * MI), QUOTA))
                    .as("exactly at the threshold")
                    .isFalse();
        }

        @Test
        void underQuotaPressureTheBarDropsToMinReclaim() {
            DefragCriteria rule = new DefragCriteria(false, 200 * MI, OptionalInt.of(80), 4 * MI);
            assertThat(rule.wants(status(52 * MI, 46 * MI), QUOTA))
                    .as("81% of the quota, 6Mi free")
                    .isTrue();
            assertThat(rule.wants(status(50 * MI, 44 * MI), QUOTA))
                    .as("78% of the quota: the 200Mi bar")
                    .isFalse();
            assertThat(rule.wants(status(60 * MI, 57 * MI), QUOTA))
                    .as("pressure, but only 3Mi free")
                    .isFalse();
        }

        @Test
        void allTakesEveryMember() {
            assertThat(DefragCriteria.ALL.wants(status(1, 1), QUOTA)).isTrue();
            assertThat(sample.wanted()).isFalse();
        }

        private EndpointStatus status(long size, long inUse) {
            return new EndpointStatus("3.5.16", id("x"), id("x"), 1, 1, 1, size, inUse, 1, false, List.of());
        }
    }

    @Nested
    class Runs {
        @Test
        void aRunStartsByRecordingEachVotersDecisionRoleAndSize() {
            Observations o = threeVoters().maintenance(run(notStarted(freeSpaceAbove(20 * MI))));
            assertThat(planner.next(o.build(), 3))
                    .isEqualTo(new Step.StartDefrag(
                            "defrag-1",
                            List.of(
                                    new Step.DefragStart("demo-a", true, true, 40 * MI, 10 * MI),
                                    new Step.DefragStart("demo-b", false, true, 40 * MI, 10 * MI),
                                    new Step.DefragStart("demo-c", false, false, 12 * MI, 10 * MI))));
        }

        @Test
        void followersGoFirstByName() {
            Observations o = threeVoters()
                    .maintenance(run(started(
                            Map.of("demo-a", pending(true), "demo-b", pending(false), "demo-c", pending(false)))));
            assertThat(planner.next(o.build(), 3)).isEqualTo(new Step.Defragment("demo-b", Optional.of("defrag-1")));
        }

        @Test
        void theLeaderHandsOverLeadershipBeforeItsTurn() {
            Observations o = threeVoters()
                    .maintenance(run(
                            started(Map.of("demo-a", pending(true), "demo-b", done(false), "demo-c", done(false)))));
            assertThat(planner.next(o.build(), 3)).isEqualTo(new Step.MoveLeader("demo-a", "demo-b", id("demo-b")));
        }

        @Test
        void theFormerLeaderIsDefragmentedAsAFollower() {
            Observations o = threeVoters()
                    .leader("demo-b")
                    .maintenance(run(
                            started(Map.of("demo-a", pending(true), "demo-b", done(false), "demo-c", done(false)))));
            assertThat(planner.next(o.build(), 3)).isEqualTo(new Step.Defragment("demo-a", Optional.of("defrag-1")));
        }

        @Test
        void aSingleMemberIsDefragmentedInPlace() {
            Observations o = cluster()
                    .voter("demo-a")
                    .leader("demo-a")
                    .maintenance(run(started(Map.of("demo-a", pending(true)))));
            assertThat(planner.next(o.build(), 1)).isEqualTo(new Step.Defragment("demo-a", Optional.of("defrag-1")));
        }

        @Test
        void nothingPendingFinishesTheRunFailedIfAMemberFailed() {
            Observations ok = threeVoters()
                    .maintenance(run(started(Map.of(
                            "demo-a",
                            done(true),
                            "demo-b",
                            done(false),
                            "demo-c",
                            new DefragRun.Progress("Skipped", false, 0)))));
            assertThat(planner.next(ok.build(), 3)).isEqualTo(new Step.FinishDefrag("defrag-1", false, ""));
            Observations failed = threeVoters()
                    .maintenance(run(started(Map.of(
                            "demo-a",
                            done(true),
                            "demo-b",
                            new DefragRun.Progress("Failed", false, 3),
                            "demo-c",
                            done(false)))));
            assertThat(planner.next(failed.build(), 3))
                    .isInstanceOfSatisfying(
                            Step.FinishDefrag.class, f -> assertThat(f.failed()).isTrue());
        }

        @Test
        void aFailedLeaderFailsTheRunAtOnce() {
            Observations o = threeVoters()
                    .maintenance(run(started(Map.of(
                            "demo-a",
                            new DefragRun.Progress("Failed", true, 3),
                            "demo-b",
                            pending(false),
                            "demo-c",
                            pending(false)))));
            assertThat(planner.next(o.build(), 3))
                    .isEqualTo(new Step.FinishDefrag("defrag-1", true, "the leader's defragment failed"));
        }

        @Test
        void aRunWaitsWhileTheClusterIsNotAtItsTarget() {
            Observations rolling = threeVoters()
                    .outdated("demo-c", RestartReason.VERSION_CHANGED)
                    .maintenance(run(notStarted(DefragCriteria.ALL)));
            assertThat(planner.next(rolling.build(), 3))
                    .isEqualTo(new Step.RestartMember("demo-c", RestartReason.VERSION_CHANGED));
            Observations joining =
                    threeVoters().learner("demo-d", true).maintenance(run(notStarted(DefragCriteria.ALL)));
            assertThat(planner.next(joining.build(), 4)).isInstanceOf(Step.PromoteLearner.class);
            Observations unready = cluster()
                    .voter("demo-a")
                    .voter("demo-b")
                    .unreadyVoter("demo-c")
                    .leader("demo-a")
                    .maintenance(run(notStarted(DefragCriteria.ALL)));
            assertThat(planner.next(unready.build(), 3).reason()).isEqualTo(Reason.MEMBERS_NOT_READY);
        }

        @Test
        void anOverdueRunFailsEvenWhileTheClusterIsBusy() {
            DefragRun overdue = new DefragRun(
                    "defrag-1", DefragCriteria.ALL, Optional.of(Instant.EPOCH), true, Map.of("demo-a", pending(true)));
            Observations o = cluster()
                    .voter("demo-a")
                    .voter("demo-b")
                    .unreadyVoter("demo-c")
                    .leader("demo-a")
                    .maintenance(run(overdue));
            assertThat(planner.next(o.build(), 3)).isInstanceOfSatisfying(Step.FinishDefrag.class, f -> {
                assertThat(f.failed()).isTrue();
                assertThat(f.detail()).contains("DeadlineExceeded");
            });
        }
    }

    @Nested
    class Alarms {
        private final Alarm nospace = new Alarm(id("demo-a"), Alarm.Kind.NOSPACE);

        @Test
        void corruptStopsEveryDisruptiveStep() {
            Observations o = threeVoters()
                    .outdated("demo-b", RestartReason.VERSION_CHANGED)
                    .maintenance(new Maintenance(
                            List.of(new Alarm(id("demo-b"), Alarm.Kind.CORRUPT)),
                            QUOTA,
                            Optional.of(notStarted(DefragCriteria.ALL))));
            Step step = planner.next(o.build(), 2);
            assertThat(step.reason()).isEqualTo(Reason.DATA_CORRUPTED);
            assertThat(step).isInstanceOf(Step.Wait.class);
        }

        /** Right after a compaction etcd's estimate still counts the freed pages (until a write, which NOSPACE refuses). */
        @Test
        void aFullVoterIsDefragmentedOnceWhateverItsEstimateSays() {
            Observations o = cluster()
                    .voter("demo-a")
                    .voter("demo-b")
                    .leader("demo-a")
                    .db("demo-a", QUOTA + MI, QUOTA)
                    .db("demo-b", QUOTA + MI / 2, QUOTA)
                    .maintenance(new Maintenance(List.of(nospace), QUOTA, Optional.empty()));
            assertThat(planner.next(o.build(), 2)).isEqualTo(new Step.Defragment("demo-b", Optional.empty()));
            Observations followerDone = cluster()
                    .voter("demo-a")
                    .voter("demo-b")
                    .leader("demo-a")
                    .db("demo-a", QUOTA + MI, QUOTA)
                    .db("demo-b", QUOTA, QUOTA)
                    .maintenance(new Maintenance(
                            List.of(nospace), QUOTA, Optional.empty(), Optional.empty(), Map.of("demo-b", 1L)));
            assertThat(planner.next(followerDone.build(), 2))
                    .isEqualTo(new Step.Defragment("demo-a", Optional.empty()));
        }

        @Test
        void afterCompactionFollowersAreDefragmentedFirstThenTheLeaderInPlace() {
            Maintenance m = new Maintenance(List.of(nospace), QUOTA, Optional.empty());
            Observations both = cluster()
                    .voter("demo-a")
                    .voter("demo-b")
                    .leader("demo-a")
                    .db("demo-a", QUOTA, MI)
                    .db("demo-b", QUOTA, MI)
                    .maintenance(m);
            assertThat(planner.next(both.build(), 2)).isEqualTo(new Step.Defragment("demo-b", Optional.empty()));
            Observations leaderLeft = cluster()
                    .voter("demo-a")
                    .voter("demo-b")
                    .leader("demo-a")
                    .db("demo-a", QUOTA, MI)
                    .db("demo-b", MI, MI)
                    .maintenance(m);
            assertThat(planner.next(leaderLeft.build(), 2)).isEqualTo(new Step.Defragment("demo-a", Optional.empty()));
        }

        @Test
        void roomOnEveryVoterDisarms() {
            Observations o = cluster()
                    .voter("demo-a")
                    .voter("demo-b")
                    .leader("demo-a")
                    .db("demo-a", 2 * MI, 2 * MI)
                    .db("demo-b", 2 * MI, 2 * MI)
                    .maintenance(new Maintenance(List.of(nospace), QUOTA, Optional.empty()));
            assertThat(planner.next(o.build(), 2)).isEqualTo(new Step.DisarmSpaceAlarms(List.of(nospace)));
        }

        @Test
        void dataThatFillsTheQuotaAfterADefragmentIsNeverDisarmed() {
            Observations o = cluster()
                    .voter("demo-a")
                    .voter("demo-b")
                    .leader("demo-a")
                    .db("demo-a", QUOTA - MI / 2, QUOTA - MI)
                    .db("demo-b", QUOTA - MI / 2, QUOTA - MI)
                    .maintenance(new Maintenance(
                            List.of(nospace),
                            QUOTA,
                            Optional.empty(),
                            Optional.empty(),
                            Map.of("demo-a", 1L, "demo-b", 1L)));
            Step step = planner.next(o.build(), 2);
            assertThat(step).isInstanceOf(Step.Wait.class);
            assertThat(step.reason()).isEqualTo(Reason.SPACE_QUOTA_FULL);
            assertThat(((Step.Wait) step).detail()).contains("[demo-a, demo-b]", "delete keys or raise");
            Observations afterDeletes = cluster()
                    .voter("demo-a")
                    .voter("demo-b")
                    .leader("demo-a")
                    .revision(2)
                    .db("demo-a", QUOTA - MI / 2, QUOTA - MI)
                    .db("demo-b", QUOTA - MI / 2, QUOTA - MI)
                    .maintenance(new Maintenance(
                            List.of(nospace),
                            QUOTA,
                            Optional.empty(),
                            Optional.empty(),
                            Map.of("demo-a", 1L, "demo-b", 1L)));
            assertThat(planner.next(afterDeletes.build(), 2))
                    .as("a person's deletes moved the revision")
                    .isEqualTo(new Step.Defragment("demo-b", Optional.empty()));
        }

        @Test
        void noSpaceWaitsForEveryVotersStatus() {
            Observations o = cluster()
                    .voter("demo-a")
                    .unreadyVoter("demo-b")
                    .voter("demo-c")
                    .leader("demo-a")
                    .maintenance(new Maintenance(List.of(nospace), QUOTA, Optional.empty()));
            Step step = planner.next(o.build(), 3);
            assertThat(step).isInstanceOf(Step.Wait.class);
            assertThat(step.reason()).isEqualTo(Reason.SPACE_QUOTA_EXCEEDED);
        }
    }
}
