package io.etcdoperator.localkube.simetcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class SimulatedClusterTest {

    private final MovableClock clock = new MovableClock();
    private final SimulatedCluster cluster =
            SimulatedCluster.seed(clock, EtcdRules.etcdDefaults(), "3.5.16", "m0", "http://m0:2380", "http://m0:2379");

    @Test
    void theSeedLeadsAloneAndListsItselfStarted() {
        assertThat(cluster.members()).singleElement().satisfies(m -> {
            assertThat(m.name()).isEqualTo("m0");
            assertThat(m.clientUrl()).isEqualTo("http://m0:2379");
            assertThat(m.learner()).isFalse();
        });
        long seed = cluster.members().getFirst().id();
        assertThat(cluster.status(seed).leader()).isEqualTo(seed);
        assertThat(cluster.clusterId()).isNotZero();
    }

    @Test
    void anAddedLearnerIsUnstartedUntilItsProcessComesUp() {
        MemberView added = cluster.add("http://m1:2380", true);
        assertThat(added.name()).isEmpty();
        assertThat(added.clientUrl()).isNull();
        assertThat(cluster.start("http://m1:2380", "m1", "http://m1:2379")).contains(added.id());
        assertThat(cluster.members())
                .filteredOn(m -> m.id() == added.id())
                .singleElement()
                .satisfies(m -> assertThat(m.name()).isEqualTo("m1"));
        assertThat(cluster.start("http://unknown:2380", "x", "http://x:2379")).isEmpty();
    }

    @Test
    void onlyOneLearnerAtATime() {
        cluster.add("http://m1:2380", true);
        assertRefused(
                () -> cluster.add("http://m2:2380", true),
                Status.Code.FAILED_PRECONDITION,
                "too many learner members in cluster");
    }

    @Test
    void aPeerUrlIsAddedOnce() {
        cluster.add("http://m1:2380", true);
        assertRefused(
                () -> cluster.add("http://m1:2380", false),
                Status.Code.FAILED_PRECONDITION,
                "Peer URLs already exists");
    }

    @Test
    void aLearnerIsPromotedOnlyOnceInSync() {
        long learner = cluster.add("http://m1:2380", true).id();
        assertRefused(
                () -> cluster.promote(learner),
                Status.Code.FAILED_PRECONDITION,
                "can only promote a learner member which is in sync with leader");
        cluster.start("http://m1:2380", "m1", "http://m1:2379");
        clock.advance(Duration.ofMillis(999));
        assertRefused(() -> cluster.promote(learner), Status.Code.FAILED_PRECONDITION, "which is in sync");
        clock.advance(Duration.ofMillis(1));
        cluster.promote(learner);
        assertThat(cluster.status(learner).learner()).isFalse();
        assertRefused(
                () -> cluster.promote(learner), Status.Code.FAILED_PRECONDITION, "can only promote a learner member");
    }

    @Test
    void aMemberAddWaitsUntilEveryOtherVoterWasConnectedForTheHealthGate() {
        joinVoter("m1"); // up for 1 s
        assertRefused(() -> cluster.add("http://m2:2380", true), Status.Code.UNAVAILABLE, "unhealthy cluster");
        clock.advance(Duration.ofSeconds(3));
        assertRefused(() -> cluster.add("http://m2:2380", true), Status.Code.UNAVAILABLE, "unhealthy cluster");
        clock.advance(Duration.ofSeconds(1));
        assertThat(cluster.add("http://m2:2380", true).learner()).isTrue();
    }

    @Test
    void aVoterIsNotAddedWhenTooFewVotersWouldBeStarted() {
        // 1 voter up of 1: a second voter makes 2, whose quorum (2) the one started voter cannot reach
        assertRefused(
                () -> cluster.add("http://m1:2380", false),
                Status.Code.FAILED_PRECONDITION,
                "not enough started members");
    }

    @Test
    void removingAVoterIsRefusedWhenTheRestWouldLoseQuorum() {
        long m1 = joinVoter("m1");
        clock.advance(Duration.ofSeconds(5));
        long m2 = joinVoter("m2");
        cluster.stop(m1);
        assertRefused(() -> cluster.remove(m2), Status.Code.FAILED_PRECONDITION, "not enough started members");
        cluster.remove(m1);
        assertThat(cluster.members()).extracting(MemberView::id).doesNotContain(m1);
        assertRefused(() -> cluster.remove(m1), Status.Code.NOT_FOUND, "member not found");
    }

    @Test
    void theLeaderMovesOnlyFromTheLeaderToAVoterThatIsUp() {
        long seed = cluster.members().getFirst().id();
        long m1 = joinVoter("m1");
        clock.advance(Duration.ofSeconds(5));
        long learner = cluster.add("http://m2:2380", true).id();
        assertRefused(() -> cluster.moveLeader(m1, seed), Status.Code.FAILED_PRECONDITION, "not leader");
        assertRefused(
                () -> cluster.moveLeader(seed, learner), Status.Code.FAILED_PRECONDITION, "bad leader transferee");
        long term = cluster.raftTerm();
        cluster.moveLeader(seed, m1);
        assertThat(cluster.status(seed).leader()).isEqualTo(m1);
        assertThat(cluster.raftTerm()).isGreaterThan(term);
    }

    @Test
    void losingTheLeaderElectsAnotherWhileAQuorumIsUpAndNoneWithout() {
        long seed = cluster.members().getFirst().id();
        long m1 = joinVoter("m1");
        clock.advance(Duration.ofSeconds(5));
        long m2 = joinVoter("m2");
        cluster.stop(seed);
        assertThat(cluster.status(m1).leader()).isIn(m1, m2);
        cluster.stop(m1);
        assertThat(cluster.hasLeader()).isFalse();
        assertRefused(() -> cluster.add("http://m3:2380", true), Status.Code.UNAVAILABLE, "no leader");
        cluster.start("http://m0:2380", "m0", "http://m0:2379");
        assertThat(cluster.hasLeader()).isTrue();
    }

    @Test
    void authNeedsRootThenTokens() {
        assertRefused(cluster::enableAuth, Status.Code.FAILED_PRECONDITION, "root user does not exist");
        assertRefused(
                () -> cluster.authenticate("root", "pw"),
                Status.Code.FAILED_PRECONDITION,
                "authentication is not enabled");
        cluster.addUser("root", "pw");
        cluster.enableAuth();
        assertRefused(() -> cluster.authorize(null), Status.Code.INVALID_ARGUMENT, "user name is empty");
        assertRefused(
                () -> cluster.authenticate("root", "wrong"), Status.Code.INVALID_ARGUMENT, "authentication failed");
        cluster.authorize(cluster.authenticate("root", "pw"));
    }

    /** Adds a learner, starts it, lets it catch up and promotes it. */
    private long joinVoter(String name) {
        long id = cluster.add("http://" + name + ":2380", true).id();
        cluster.start("http://" + name + ":2380", name, "http://" + name + ":2379");
        clock.advance(Duration.ofSeconds(1));
        cluster.promote(id);
        return id;
    }

    private static void assertRefused(Runnable call, Status.Code code, String message) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(EtcdRefusal.class, refusal -> {
            assertThat(refusal.code()).isEqualTo(code);
            assertThat(refusal.getMessage()).startsWith("etcdserver: ").contains(message);
        });
    }

    private static final class MovableClock extends Clock {
        private Instant now = Instant.parse("2026-11-24T00:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
