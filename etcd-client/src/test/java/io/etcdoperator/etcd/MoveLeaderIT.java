package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Maintenance MoveLeader through the port on a 3-member cluster: the leader hands over to a follower that every
 * member then sees as leader, data written before and after stays readable; a follower refuses with NotLeader and a
 * transferee that is not a member is BadLeaderTransferee, both leaving the leader where it was.
 */
class MoveLeaderIT {

    static final Duration AGREE_WITHIN = Duration.ofSeconds(30);

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void theLeaderHandsOverToAFollower(EtcdVersion version) {
        try (LocalEtcd etcd = new LocalEtcd(version)) {
            List<EtcdProcess> members = etcd.startCluster("m1", "m2", "m3");
            try (EtcdAdmin admin = MembershipIT.adminOf(members);
                    KeyValues kv = new KeyValues(
                            members.stream().map(EtcdProcess::clientUrl).toList())) {
                MemberId leader = agreedLeader(admin, members, AGREE_WITHIN);
                EtcdProcess leading = memberWithId(admin, members, leader);
                EtcdProcess follower =
                        members.stream().filter(m -> m != leading).findFirst().orElseThrow();
                MemberId transferee = admin.status(follower.clientUrl()).memberId();
                kv.put("/move/before", "led by " + leader);

                admin.moveLeader(leading.clientUrl(), transferee);

                assertThat(admin.status(leading.clientUrl()).leader())
                        .as("the old leader's view")
                        .isEqualTo(transferee);
                assertThat(agreedLeader(admin, members, AGREE_WITHIN))
                        .as("every member's view")
                        .isEqualTo(transferee);
                assertThat(admin.status(follower.clientUrl()).isLeader()).isTrue();
                kv.put("/move/after", "led by " + transferee);
                assertThat(kv.readPrefix("/move/"))
                        .containsExactly(
                                entry("/move/after", "led by " + transferee),
                                entry("/move/before", "led by " + leader));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void aFollowerRefusesWithNotLeaderAndAStrangerIsABadTransferee(EtcdVersion version) {
        try (LocalEtcd etcd = new LocalEtcd(version)) {
            List<EtcdProcess> members = etcd.startCluster("m1", "m2", "m3");
            try (EtcdAdmin admin = MembershipIT.adminOf(members)) {
                MemberId leader = agreedLeader(admin, members, AGREE_WITHIN);
                EtcdProcess leading = memberWithId(admin, members, leader);
                List<EtcdProcess> followers =
                        members.stream().filter(m -> m != leading).toList();
                MemberId otherFollower =
                        admin.status(followers.get(1).clientUrl()).memberId();
                MemberId stranger = new MemberId(0x5eedL);

                assertThatThrownBy(() -> admin.moveLeader(followers.get(0).clientUrl(), otherFollower))
                        .isInstanceOf(EtcdException.NotLeader.class)
                        .hasMessageContaining(followers.get(0).clientUrl().toString())
                        .hasMessageContaining("not leader");
                assertThatThrownBy(() -> admin.moveLeader(leading.clientUrl(), stranger))
                        .isInstanceOf(EtcdException.BadLeaderTransferee.class)
                        .hasMessageContaining(stranger.hex());
                assertThat(agreedLeader(admin, members, AGREE_WITHIN)).isEqualTo(leader);
            }
        }
    }

    /** Waits until every member reports the same leader, and returns it. */
    static MemberId agreedLeader(EtcdAdmin admin, List<EtcdProcess> members, Duration within) {
        return Await.until("one leader that all of " + members + " agree on", within, () -> {
            Set<MemberId> seen = members.stream()
                    .map(m -> admin.status(m.clientUrl()).leader())
                    .collect(Collectors.toSet());
            return seen.size() == 1 && seen.iterator().next().value() != 0
                    ? Optional.of(seen.iterator().next())
                    : Optional.empty();
        });
    }

    static EtcdProcess memberWithId(EtcdAdmin admin, List<EtcdProcess> members, MemberId id) {
        return members.stream()
                .filter(m -> admin.status(m.clientUrl()).memberId().equals(id))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no member of " + members + " has id " + id));
    }
}
