package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Defragment, compact and alarms through the port against real etcd: space freed by deletes is returned to the
 * file system only by a defragment after compaction; a member over its quota raises NOSPACE and refuses writes
 * until the keyspace is compacted, defragmented and the alarm disarmed.
 */
class MaintenanceIT {

    private static final String BLOB = "x".repeat(64 * 1024);

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void compactAndDefragmentReturnFreedSpace(EtcdVersion version) {
        try (LocalEtcd etcd = new LocalEtcd(version)) {
            EtcdProcess member = etcd.startFirst("m1");
            try (EtcdAdmin admin = MembershipIT.adminOf(member);
                    KeyValues kv = new KeyValues(List.of(member.clientUrl()))) {
                for (int i = 0; i < 128; i++) {
                    kv.put("/bulk/" + i, BLOB);
                }
                kv.delete("/bulk/");
                kv.put("/kept", "still here");
                Compaction compaction = admin.compact();
                long before = admin.status(member.clientUrl()).dbSize();

                admin.defragment(member.clientUrl(), Duration.ofSeconds(30));

                EndpointStatus after = admin.status(member.clientUrl());
                System.out.printf(
                        "MaintenanceIT %s: db %d -> %d bytes (in use %d), compacted at revision %d%n",
                        version, before, after.dbSize(), after.dbSizeInUse(), compaction.revision());
                assertThat(compaction.alreadyCompacted()).isFalse();
                assertThat(compaction.revision()).isGreaterThan(128);
                assertThat(before).isGreaterThan(8L * 1024 * 1024);
                assertThat(after.dbSize()).isLessThan(before / 4);
                assertThat(admin.compact().alreadyCompacted())
                        .as("a second compaction at the same revision")
                        .isTrue();
                assertThat(kv.readPrefix("/kept")).containsEntry("/kept", "still here");
            }
        }
    }

    /** etcd raises CORRUPT itself only on a hash mismatch; the Alarm RPC's ACTIVATE stands in for one here. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void aCorruptAlarmIsReportedAsSuch(EtcdVersion version) throws Exception {
        try (LocalEtcd etcd = new LocalEtcd(version)) {
            EtcdProcess member = etcd.startFirst("m1");
            try (EtcdAdmin admin = MembershipIT.adminOf(member)) {
                MemberId id = admin.status(member.clientUrl()).memberId();
                activateCorrupt(member, id);
                assertThat(admin.alarms()).containsExactly(new Alarm(id, Alarm.Kind.CORRUPT));
                assertThat(admin.status(member.clientUrl()).errors())
                        .as("Status names the alarm too: the operator skips the Alarm call only when it names none")
                        .anySatisfy(e -> assertThat(e).contains("CORRUPT"));
            }
        }
    }

    /** A CORRUPT alarm raised on one voter shows in every member's Status, a follower's and a learner's too. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void anAlarmShowsInEveryMembersStatus(EtcdVersion version) throws Exception {
        try (LocalEtcd etcd = new LocalEtcd(version)) {
            EtcdProcess first = etcd.startFirst("m1");
            try (EtcdAdmin admin = MembershipIT.adminOf(first)) {
                LocalEtcd.Peer follower = etcd.reserve("m2");
                Membership withLearner = admin.addLearner(follower.peerUrl());
                etcd.startJoining(follower, withLearner);
                MembershipChanges.promote(
                        admin,
                        withLearner.byPeerUrl(follower.peerUrl()).orElseThrow().id(),
                        Duration.ofSeconds(30));
                LocalEtcd.Peer learner = etcd.reserve("m3");
                Membership withSecondLearner =
                        Await.until("etcd's 5 s gate after the promote", Duration.ofSeconds(20), () -> {
                            try {
                                return Optional.of(admin.addLearner(learner.peerUrl()));
                            } catch (EtcdException.MembershipRefused e) {
                                return Optional.empty(); // "unhealthy cluster" until the new voter is 5 s active
                            }
                        });
                etcd.startJoining(learner, withSecondLearner);

                activateCorrupt(first, admin.status(first.clientUrl()).memberId());

                for (var url : List.of(first.clientUrl(), follower.clientUrl(), learner.clientUrl())) {
                    List<String> errors = Await.until(
                            "the alarm in the Status of " + url,
                            Duration.ofSeconds(10),
                            () -> Optional.of(admin.status(url).errors()).filter(e -> !e.isEmpty()));
                    assertThat(errors).anySatisfy(e -> assertThat(e).contains("CORRUPT"));
                }
            }
        }
    }

    /** etcd raises CORRUPT itself only on a hash mismatch; the Alarm RPC's ACTIVATE stands in for one. */
    private static void activateCorrupt(EtcdProcess member, MemberId id) {
        ManagedChannel channel = NettyChannelBuilder.forAddress(
                        member.clientUrl().getHost(), member.clientUrl().getPort())
                .usePlaintext()
                .build();
        try {
            io.etcd.jetcd.api.MaintenanceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(10, TimeUnit.SECONDS)
                    .alarm(io.etcd.jetcd.api.AlarmRequest.newBuilder()
                            .setAction(io.etcd.jetcd.api.AlarmRequest.AlarmAction.ACTIVATE)
                            .setMemberID(id.value())
                            .setAlarmValue(2)
                            .build());
        } finally {
            channel.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void noSpaceIsRaisedAndClearedByCompactDefragDisarm(EtcdVersion version) {
        try (LocalEtcd etcd = new LocalEtcd(version).withFlags("--quota-backend-bytes=" + 4 * 1024 * 1024)) {
            EtcdProcess member = etcd.startFirst("m1");
            try (EtcdAdmin admin = MembershipIT.adminOf(member);
                    KeyValues kv = new KeyValues(List.of(member.clientUrl()))) {
                kv.put("/kept", "acknowledged before the alarm");
                Optional<Throwable> refusal = Optional.empty();
                for (int i = 0; i < 500 && refusal.isEmpty(); i++) {
                    refusal = kv.tryPut("/churn/" + (i % 4), BLOB); // overwrites: compaction frees almost everything
                }
                assertThat(refusal)
                        .as("a write refused once over the quota")
                        .get()
                        .satisfies(e -> assertThat(e).hasMessageContaining("database space exceeded"));
                MemberId id = admin.status(member.clientUrl()).memberId();
                assertThat(admin.alarms()).containsExactly(new Alarm(id, Alarm.Kind.NOSPACE));
                assertThat(admin.status(member.clientUrl()).errors())
                        .anySatisfy(e -> assertThat(e).contains("NOSPACE"));

                admin.compact();
                EndpointStatus compacted = admin.status(member.clientUrl());
                admin.defragment(member.clientUrl(), Duration.ofSeconds(30));
                EndpointStatus defragmented = admin.status(member.clientUrl());
                admin.disarm(new Alarm(id, Alarm.Kind.NOSPACE));

                System.out.printf(
                        "MaintenanceIT %s NOSPACE: after compaction db %d in use %d; after defragment db %d in use %d%n",
                        version,
                        compacted.dbSize(),
                        compacted.dbSizeInUse(),
                        defragmented.dbSize(),
                        defragmented.dbSizeInUse());
                // Why the planner defragments a full voter whatever its estimate says (SpaceAlarms): pages a compaction
                // freed
                // count as free only after the member's next commit, and NOSPACE refuses writes. etcd 3.5 commits again
                // on the
                // member that answered a physical compaction (only there: DefragE2EIT's followers), 3.4 nowhere.
                if (version == EtcdVersion.V3_4_23) {
                    assertThat(compacted.dbSizeInUse())
                            .as("in use right after compaction")
                            .isGreaterThan(2L * 1024 * 1024);
                }
                assertThat(defragmented.dbSizeInUse())
                        .as("in use after the defragment")
                        .isLessThan(1024L * 1024);

                assertThat(admin.alarms()).isEmpty();
                assertThat(admin.status(member.clientUrl()).errors()).isEmpty();
                assertThat(kv.tryPut("/after", "writable again")).isEmpty();
                assertThat(kv.readPrefix("/kept")).containsEntry("/kept", "acknowledged before the alarm");
            }
        }
    }
}
