package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Walks a cluster 1 → 3 → 5 → 3 → 1 through the port only: scale-up adds a learner, starts it and promotes it;
 * scale-down removes the newest member first through an admin connected only to the voters that remain. Keys are
 * written at every step and must all be readable at the end; the cluster id never changes.
 */
class ScaleWalkIT {

    private static final Duration CHANGE_WITHIN = Duration.ofSeconds(30);
    private static final int KEYS_PER_STEP = 20;

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void walksOneThreeFiveThreeOne(EtcdVersion version) {
        try (LocalEtcd etcd = new LocalEtcd(version)) {
            Walk walk = new Walk(etcd);
            walk.timed("start 1", walk::startFirst);
            ClusterId clusterId = walk.clusterId();

            walk.timed("1 -> 3", () -> walk.scaleTo(3));
            walk.timed("3 -> 5", () -> walk.scaleTo(5));
            walk.timed("5 -> 3", () -> walk.scaleTo(3));
            walk.timed("3 -> 1", () -> walk.scaleTo(1));

            assertThat(walk.clusterId()).isEqualTo(clusterId);
            assertThat(walk.membership().voters()).extracting(Member::name).containsExactly("m1");
            assertThat(walk.membership().learners()).isEmpty();
            assertThat(walk.readAll())
                    .containsExactlyInAnyOrderEntriesOf(walk.written)
                    .hasSize(5 * KEYS_PER_STEP);
            walk.timings.forEach((step, ms) -> System.out.printf("%s walk: %-8s %6d ms%n", version, step, ms));
        }
    }

    /** The cluster under test and what was written to it. */
    private static final class Walk {
        private final LocalEtcd etcd;
        private final List<EtcdProcess> voters = new ArrayList<>();
        private final Map<String, String> written = new LinkedHashMap<>();
        private final Map<String, Long> timings = new LinkedHashMap<>();
        private int nextOrdinal = 1;
        private ClusterId clusterId;

        Walk(LocalEtcd etcd) {
            this.etcd = etcd;
        }

        void timed(String step, Runnable action) {
            long started = System.nanoTime();
            action.run();
            timings.put(step, (System.nanoTime() - started) / 1_000_000);
            assertThat(clusterId())
                    .as("cluster id after " + step)
                    .isEqualTo(clusterId == null ? clusterId() : clusterId);
            clusterId = clusterId();
            writeKeys(step);
        }

        void startFirst() {
            voters.add(etcd.startFirst("m" + nextOrdinal++));
        }

        void scaleTo(int size) {
            while (voters.size() < size) {
                grow();
            }
            while (voters.size() > size) {
                shrink();
            }
        }

        private void grow() {
            try (EtcdAdmin admin = MembershipIT.adminOf(voters)) {
                LocalEtcd.Peer peer = etcd.reserve("m" + nextOrdinal++);
                Membership afterAdd = MembershipChanges.addLearner(admin, peer.peerUrl(), CHANGE_WITHIN);
                MemberId learner =
                        afterAdd.byPeerUrl(peer.peerUrl()).orElseThrow().id();
                EtcdProcess process = etcd.startJoining(peer, afterAdd);
                MembershipChanges.promote(admin, learner, CHANGE_WITHIN);
                voters.add(process);
            }
        }

        private void shrink() {
            EtcdProcess newest = voters.removeLast();
            try (EtcdAdmin admin = MembershipIT.adminOf(voters)) {
                MemberId id =
                        admin.members().byName(newest.name()).orElseThrow().id();
                MembershipChanges.remove(admin, id, CHANGE_WITHIN);
            }
            assertThat(newest.awaitExit(Duration.ofSeconds(20)))
                    .as(newest + " exits after removal")
                    .isTrue();
        }

        Membership membership() {
            try (EtcdAdmin admin = MembershipIT.adminOf(voters)) {
                return admin.members();
            }
        }

        ClusterId clusterId() {
            return membership().clusterId();
        }

        private void writeKeys(String step) {
            try (KeyValues kv =
                    new KeyValues(voters.stream().map(EtcdProcess::clientUrl).toList())) {
                for (int i = 0; i < KEYS_PER_STEP; i++) {
                    String key = "/walk/" + step.replace(" ", "") + "/" + i;
                    String value = "voters=" + voters.size() + ",i=" + i;
                    kv.put(key, value);
                    written.put(key, value);
                }
            }
        }

        Map<String, String> readAll() {
            try (KeyValues kv = new KeyValues(List.of(voters.getFirst().clientUrl()))) {
                return kv.readPrefix("/walk/");
            }
        }
    }
}
