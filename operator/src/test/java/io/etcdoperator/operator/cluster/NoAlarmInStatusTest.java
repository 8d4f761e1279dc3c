package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Alarm call is skipped only when every member etcd lists answered Status, each with no error at all. */
class NoAlarmInStatusTest {

    private static final Membership THREE =
            new Membership(new ClusterId(0xc1L), List.of(member(1, false), member(2, false), member(3, true)));

    private static Member member(long id, boolean learner) {
        return new Member(
                new MemberId(id), "m" + id, List.of(URI.create("http://m" + id + ":2380")), List.of(), learner);
    }

    private static EndpointStatus status(long id, String... errors) {
        return new EndpointStatus(
                "3.5.16", new MemberId(id), new MemberId(1), 9, 9, 2, 1, 1, 5, false, List.of(errors));
    }

    @Test
    void everyListedMemberAnsweredCleanSkipsTheCall() {
        assertThat(ClusterObserver.noAlarmInStatus(THREE, List.of(status(1), status(2), status(3))))
                .isTrue();
    }

    @Test
    void anErrorOnAnyMemberAsks() {
        assertThat(ClusterObserver.noAlarmInStatus(
                        THREE, List.of(status(1), status(2, "memberID:2 alarm:NOSPACE "), status(3))))
                .isFalse();
        assertThat(ClusterObserver.noAlarmInStatus(
                        THREE, List.of(status(1, "etcdserver: no leader"), status(2), status(3))))
                .isFalse();
    }

    @Test
    void aMemberNotAskedOrNotListedAsks() {
        assertThat(ClusterObserver.noAlarmInStatus(THREE, List.of(status(1), status(2))))
                .as("the learner's Pod is not ready")
                .isFalse();
        assertThat(ClusterObserver.noAlarmInStatus(THREE, List.of(status(1), status(2), status(4))))
                .as("an answer from a member etcd does not list")
                .isFalse();
        assertThat(ClusterObserver.noAlarmInStatus(new Membership(new ClusterId(0xc1L), List.of()), List.of()))
                .isFalse();
    }
}
