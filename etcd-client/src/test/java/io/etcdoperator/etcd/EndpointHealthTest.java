package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Deadline;
import io.grpc.Status;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The order a connection tries its endpoints in, and which failures let a call move on to the next one. */
class EndpointHealthTest {

    private static final URI A = URI.create("http://a:2379");
    private static final URI B = URI.create("http://b:2379");
    private static final URI C = URI.create("http://c:2379");

    private final MovableClock clock = new MovableClock();
    private final EndpointHealth health = new EndpointHealth(List.of(A, B, C), clock);

    @Test
    void untouchedEndpointsKeepTheConfiguredOrder() {
        assertThat(health.order()).containsExactly(A, B, C);
    }

    @Test
    void theEndpointThatAnsweredLastComesFirstThenTheLeader() {
        health.leads(C);
        assertThat(health.order()).containsExactly(C, A, B);

        health.answered(B);
        assertThat(health.order()).containsExactly(B, C, A);
    }

    @Test
    void aFailedEndpointIsTriedLastForThirtySecondsThenInItsPlaceAgain() {
        health.answered(A);
        health.failed(A);
        assertThat(health.order()).containsExactly(B, C, A);
        assertThat(health.shunned(A)).isTrue();

        clock.advance(EndpointHealth.SHUNNED_FOR.minusSeconds(1));
        assertThat(health.order()).containsExactly(B, C, A);

        clock.advance(Duration.ofSeconds(2));
        assertThat(health.order()).containsExactly(A, B, C);
        assertThat(health.shunned(A)).isFalse();
    }

    @Test
    void amongFailedEndpointsTheOneThatFailedLongestAgoComesFirst() {
        health.failed(B);
        clock.advance(Duration.ofSeconds(5));
        health.failed(A);
        assertThat(health.order()).containsExactly(C, B, A);
    }

    @Test
    void aFailedLeaderIsNeitherPreferredNorReportedAsLeader() {
        health.leads(B);
        health.failed(B);
        assertThat(health.order()).containsExactly(A, C, B);
        assertThat(health.leader()).isEmpty();

        health.answered(B);
        assertThat(health.leader()).contains(B);
    }

    @Test
    void anEndpointThatNoLongerLeadsLosesItsPlace() {
        health.leads(C);
        health.follows(C);
        assertThat(health.order()).containsExactly(A, B, C);
        assertThat(health.leader()).isEmpty();
    }

    @Test
    void anAnswerClearsAnEarlierFailure() {
        health.failed(A);
        health.answered(A);
        assertThat(health.shunned(A)).isFalse();
        assertThat(health.order()).containsExactly(A, B, C);
    }

    @Test
    void aLeaderOrLastAnswerOutsideTheConfiguredEndpointsIsNotTried() {
        URI elsewhere = URI.create("http://d:2379");
        health.answered(elsewhere);
        health.leads(elsewhere);
        assertThat(health.order()).containsExactly(A, B, C);
    }

    @Test
    void onlyFailuresWithoutAnAnswerMoveOn() {
        assertThat(EtcdChannels.noAnswer(
                        Status.UNAVAILABLE.withDescription("io exception").asRuntimeException()))
                .isTrue();
        assertThat(EtcdChannels.noAnswer(Status.DEADLINE_EXCEEDED.asRuntimeException()))
                .isTrue();
        assertThat(EtcdChannels.noAnswer(Status.UNAVAILABLE
                        .withDescription("etcdserver: request timed out")
                        .asRuntimeException()))
                .isTrue();
        // etcd's own refusals are answers: another endpoint would say the same
        assertThat(EtcdChannels.noAnswer(Status.UNAVAILABLE
                        .withDescription("etcdserver: unhealthy cluster")
                        .asRuntimeException()))
                .isFalse();
        assertThat(EtcdChannels.noAnswer(Status.NOT_FOUND
                        .withDescription("etcdserver: member not found")
                        .asRuntimeException()))
                .isFalse();
        assertThat(EtcdChannels.noAnswer(Status.FAILED_PRECONDITION
                        .withDescription("etcdserver: user name is empty")
                        .asRuntimeException()))
                .isFalse();
    }

    @Test
    void aChangeWithoutAnswerMayHaveBeenApplied() {
        assertThat(EtcdChannels.outcomeUnknown(Status.DEADLINE_EXCEEDED.asRuntimeException()))
                .isTrue();
        assertThat(EtcdChannels.outcomeUnknown(Status.UNAVAILABLE
                        .withDescription("etcdserver: request timed out")
                        .asRuntimeException()))
                .isTrue();
        assertThat(EtcdChannels.outcomeUnknown(
                        Status.UNAVAILABLE.withDescription("connection refused").asRuntimeException()))
                .isFalse();
    }

    @Test
    void everyTryButTheLastGetsHalfTheTimeoutAtMost() {
        Deadline overall = Deadline.after(5, TimeUnit.SECONDS);
        Duration timeout = Duration.ofSeconds(5);

        long first = EtcdChannels.attemptDeadline(overall, timeout, false).timeRemaining(TimeUnit.MILLISECONDS);
        assertThat(first).isBetween(1L, 2_500L);
        assertThat(EtcdChannels.attemptDeadline(overall, timeout, true)).isSameAs(overall);

        Deadline almostOver = Deadline.after(300, TimeUnit.MILLISECONDS);
        assertThat(EtcdChannels.attemptDeadline(almostOver, timeout, false).timeRemaining(TimeUnit.MILLISECONDS))
                .isLessThanOrEqualTo(300L);
    }

    /** A clock the test moves by hand. */
    private static final class MovableClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
