package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A rolling binary upgrade of a 3-member cluster, one member at a time: stop it, write through the two that run,
 * start it on the newer binary over the same data directory with the same flags (initial-cluster-state existing),
 * wait until it serves, reports the new version and has caught up, write again. The member that leads when its turn
 * comes is rolled last, after MoveLeader handed its leadership to a member that already runs the new binary; no
 * member is ever stopped while it leads. Member ids, the cluster id and every key survive.
 */
class BinaryUpgradeIT {

    private static final Duration WITHIN = Duration.ofSeconds(30);
    private static final int KEYS_PER_STEP = 20;

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"V3_4_23, V3_5_16", "V3_5_16, V3_5_30"})
    void rollsEveryMemberOntoTheNewerBinaryLeaderLast(EtcdVersion from, EtcdVersion to) {
        try (LocalEtcd etcd = new LocalEtcd(from)) {
            List<EtcdProcess> members = new ArrayList<>(etcd.startCluster("m1", "m2", "m3"));
            Map<String, String> written = new LinkedHashMap<>();
            List<String> rolled = new ArrayList<>();
            String handedOverBy = null;
            Membership before;
            Map<String, MemberId> ids;
            try (EtcdAdmin admin = MembershipIT.adminOf(members)) {
                before = admin.members();
                ids = idsByName(before);
                assertThat(ids).hasSize(3);
                members.forEach(
                        m -> assertThat(admin.status(m.clientUrl()).version()).isEqualTo(from.release()));
                write(members, "/roll/0-before/", written);

                Set<String> upgraded = new LinkedHashSet<>();
                while (upgraded.size() < members.size()) {
                    MemberId leader = MoveLeaderIT.agreedLeader(admin, members, WITHIN);
                    Optional<EtcdProcess> follower = members.stream()
                            .filter(m -> !upgraded.contains(m.name())
                                    && !ids.get(m.name()).equals(leader))
                            .findFirst();
                    EtcdProcess next;
                    if (follower.isPresent()) {
                        next = follower.get();
                    } else {
                        next = members.stream()
                                .filter(m -> ids.get(m.name()).equals(leader))
                                .findFirst()
                                .orElseThrow();
                        MemberId transferee = ids.get(upgraded.iterator().next());
                        admin.moveLeader(next.clientUrl(), transferee);
                        assertThat(MoveLeaderIT.agreedLeader(admin, members, WITHIN))
                                .isEqualTo(transferee);
                        handedOverBy = next.name();
                    }
                    assertThat(admin.status(next.clientUrl()).isLeader())
                            .as(next.name() + " leads when stopped")
                            .isFalse();

                    int step = rolled.size() + 1;
                    next.stop();
                    List<EtcdProcess> running =
                            members.stream().filter(m -> m != next).toList();
                    write(running, "/roll/" + step + "-" + next.name() + "-down/", written);
                    long leaderIndex = admin.status(MoveLeaderIT.memberWithId(
                                            admin, running, MoveLeaderIT.agreedLeader(admin, running, WITHIN))
                                    .clientUrl())
                            .raftIndex();

                    EtcdProcess restarted = etcd.restart(next, to);
                    members.set(members.indexOf(next), restarted);
                    EndpointStatus status = Await.until(
                            restarted.name() + " on " + to + " caught up to index " + leaderIndex,
                            WITHIN,
                            () -> Optional.of(admin.status(restarted.clientUrl()))
                                    .filter(s ->
                                            s.version().equals(to.release()) && s.raftAppliedIndex() >= leaderIndex));
                    assertThat(status.memberId())
                            .as("member id of " + restarted.name())
                            .isEqualTo(ids.get(restarted.name()));
                    assertThat(status.learner()).isFalse();
                    upgraded.add(restarted.name());
                    rolled.add(restarted.name());
                    write(members, "/roll/" + step + "-" + next.name() + "-up/", written);
                }
            }
            // A new admin, as the operator dials one per pass: the roll's own jetcd channel saw every endpoint go down
            // once and can fail a call fast (Unavailable) for a moment while it reconnects.
            try (EtcdAdmin admin = MembershipIT.adminOf(members)) {
                Membership after = admin.members();
                assertThat(after.clusterId()).isEqualTo(before.clusterId());
                assertThat(idsByName(after)).isEqualTo(ids);
                assertThat(after.learners()).isEmpty();
                for (EtcdProcess member : members) {
                    assertThat(admin.status(member.clientUrl()).version())
                            .as(member.name())
                            .isEqualTo(to.release());
                    try (KeyValues kv = new KeyValues(List.of(member.clientUrl()))) {
                        assertThat(kv.readPrefix("/roll/"))
                                .as("keys read through " + member.name())
                                .containsExactlyInAnyOrderEntriesOf(written);
                    }
                }
            }
            assertThat(written).hasSize(KEYS_PER_STEP * 7);
            System.out.printf(
                    "%s -> %s: rolled %s; leadership handed over by %s%n",
                    from, to, rolled, handedOverBy == null ? "nobody (the last member did not lead)" : handedOverBy);
        }
    }

    private static Map<String, MemberId> idsByName(Membership membership) {
        return membership.members().stream().collect(Collectors.toMap(Member::name, Member::id));
    }

    private static void write(List<EtcdProcess> through, String prefix, Map<String, String> written) {
        try (KeyValues kv =
                new KeyValues(through.stream().map(EtcdProcess::clientUrl).toList())) {
            for (int i = 0; i < KEYS_PER_STEP; i++) {
                String key = prefix + i;
                String value =
                        "through " + through.stream().map(EtcdProcess::name).toList() + ", i=" + i;
                kv.put(key, value);
                written.put(key, value);
            }
        }
    }
}
