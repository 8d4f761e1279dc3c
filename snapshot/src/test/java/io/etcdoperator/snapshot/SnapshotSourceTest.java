package io.etcdoperator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.MemberId;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotSourceTest {

    static final MemberId A = new MemberId(0xa);
    static final MemberId B = new MemberId(0xb);
    static final MemberId C = new MemberId(0xc);

    /** What member {@code id} answers when it believes {@code leader} leads, at term 2. */
    static SnapshotSource answer(MemberId id, MemberId leader, long applied, long revision) {
        return answer(id, leader, applied, revision, 2, false, List.of());
    }

    static SnapshotSource answer(
            MemberId id,
            MemberId leader,
            long applied,
            long revision,
            long term,
            boolean learner,
            List<String> errors) {
        var status = new EndpointStatus(
                "3.5.16", id, leader, applied, applied, term, 1 << 20, 1 << 20, revision, learner, errors);
        return new SnapshotSource(URI.create("http://m-" + id.hex() + ":2379"), status);
    }

    @Test
    void theLeaderIsPreferredOverAFollowerFurtherAlong() {
        var follower = answer(A, B, 120, 60);
        var leader = answer(B, B, 110, 55);
        assertThat(SnapshotSource.choose(List.of(follower, leader))).contains(leader);
    }

    @Test
    void aLaggingFollowerListedFirstIsNotChosen() {
        var lagging = answer(A, C, 10, 4);
        var caughtUp = answer(B, C, 500, 250);
        var leader = answer(C, C, 500, 250);
        assertThat(SnapshotSource.choose(List.of(lagging, caughtUp, leader))).contains(leader);
        assertThat(SnapshotSource.choose(List.of(lagging, caughtUp))).contains(caughtUp);
    }

    @Test
    void withoutALeaderTheHighestAppliedIndexWins() {
        var behind = answer(A, new MemberId(0), 90, 40);
        var ahead = answer(B, new MemberId(0), 95, 41);
        var between = answer(C, new MemberId(0), 92, 40);
        assertThat(SnapshotSource.choose(List.of(behind, ahead, between))).contains(ahead);
    }

    @Test
    void equalAppliedIndexesFallBackToTheRaftIndexThenTheListOrder() {
        var first = new SnapshotSource(
                URI.create("http://first:2379"),
                new EndpointStatus("3.4.23", A, new MemberId(0), 7, 0, 2, 1, 1, 3, false, List.of()));
        var further = new SnapshotSource(
                URI.create("http://further:2379"),
                new EndpointStatus("3.4.23", B, new MemberId(0), 9, 0, 2, 1, 1, 3, false, List.of()));
        var same = new SnapshotSource(
                URI.create("http://same:2379"),
                new EndpointStatus("3.4.23", C, new MemberId(0), 7, 0, 2, 1, 1, 3, false, List.of()));
        assertThat(SnapshotSource.choose(List.of(first, further))).contains(further);
        assertThat(SnapshotSource.choose(List.of(first, same))).contains(first);
    }

    @Test
    void ofTwoSelfDeclaredLeadersTheHigherTermWins() {
        var stale = answer(A, A, 900, 450, 3, false, List.of());
        var current = answer(B, B, 800, 400, 4, false, List.of());
        assertThat(SnapshotSource.choose(List.of(stale, current))).contains(current);
    }

    @Test
    void learnersAndAlarmedMembersAreNeverChosen() {
        var learner = answer(A, A, 900, 450, 2, true, List.of());
        var alarmed = answer(B, B, 900, 450, 2, false, List.of("NOSPACE"));
        var follower = answer(C, B, 10, 5);
        assertThat(SnapshotSource.choose(List.of(learner, alarmed, follower))).contains(follower);
        assertThat(SnapshotSource.choose(List.of(learner, alarmed))).isEmpty();
    }
}
