package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Calls that any member may answer still succeed when the endpoint tried first is frozen (SIGSTOP: TCP is accepted,
 * nothing answers) or never speaks: the try on it gets half the timeout, the next endpoint answers, and the frozen one
 * is tried last afterwards. Durations are printed, not asserted; before, such a call failed with Unavailable.
 */
class FrozenMemberIT {

    private static final Duration CHANGE_WITHIN = Duration.ofSeconds(30);

    /**
     * With auth on, so that promote also shows it reaches the leader although the hint names a follower (before etcd
     * 3.5.28 a follower cannot forward it with auth on: issue 11's 50 promotes that ran into the deadline).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void membershipCallsGoOnWhileTheFirstEndpointIsFrozen(EtcdVersion version) {
        String password = "pw-" + UUID.randomUUID();
        try (LocalEtcd etcd = new LocalEtcd(version)) {
            List<EtcdProcess> members = etcd.startCluster("m1", "m2", "m3");
            MemberId leaderId;
            EtcdProcess leader;
            try (EtcdAdmin anonymous = MembershipIT.adminOf(members)) {
                leaderId = MoveLeaderIT.agreedLeader(anonymous, members, CHANGE_WITHIN);
                leader = MoveLeaderIT.memberWithId(anonymous, members, leaderId);
                anonymous.enableAuth(password);
            }
            List<EtcdProcess> followers =
                    members.stream().filter(m -> m != leader).toList();
            EtcdProcess frozen = followers.get(0);
            EtcdProcess follower = followers.get(1);
            List<URI> endpoints = List.of(frozen.clientUrl(), leader.clientUrl(), follower.clientUrl());
            try (EtcdAdmin admin = JetcdEtcdAdmin.FACTORY.open(new EtcdConnection(
                    endpoints,
                    Optional.empty(),
                    Optional.of(new EtcdConnection.Credentials("root", password)),
                    EtcdConnection.DEFAULT_TIMEOUT))) {
                assertThat(admin.members().members())
                        .hasSize(3); // answered by the first endpoint, preferred from now on
                LocalEtcd.Peer peer = etcd.reserve("m4");
                Membership afterAdd = MembershipChanges.addLearner(admin, peer.peerUrl(), CHANGE_WITHIN);
                MemberId learner =
                        afterAdd.byPeerUrl(peer.peerUrl()).orElseThrow().id();
                EtcdProcess joined = etcd.startJoining(peer, afterAdd);
                Signals signals = new Signals(frozen);
                try {
                    signals.stop();
                    String prefix = version + " with " + frozen.name() + " frozen (first endpoint), timeout "
                            + EtcdConnection.DEFAULT_TIMEOUT.toMillis() + " ms:";

                    Membership listed = timed(prefix, "member list (first)", admin::members);
                    assertThat(listed.members()).hasSize(4);
                    assertThat(timed(prefix, "member list (again)", admin::members)
                                    .members())
                            .hasSize(4);
                    assertThat(timed(prefix, "alarms", admin::alarms)).isEmpty();
                    assertThat(timed(prefix, "auth probe", admin::authEnabled)).isTrue();
                    // a status for exactly the frozen member cannot go elsewhere; recently silent, it gets half the
                    // timeout
                    assertThat(timed(
                                    prefix,
                                    "status of the frozen member",
                                    () -> catchThrowable(() -> admin.status(frozen.clientUrl()))))
                            .isInstanceOf(EtcdException.Unavailable.class);
                    // etcd itself refuses a member add while a voter is down ("unhealthy cluster"): an answer, not a
                    // hang
                    URI another = etcd.reserve("m5").peerUrl();
                    assertThat(timed(
                                    prefix,
                                    "add learner (refused)",
                                    () -> catchThrowable(() -> admin.addLearner(another))))
                            .isInstanceOf(EtcdException.MembershipRefused.class);

                    int promotes = timed(
                            prefix,
                            "promote (hint: a follower)",
                            () -> retry(
                                    () -> admin.promote(learner, follower.clientUrl()),
                                    EtcdException.LearnerNotReady.class));
                    assertThat(admin.members().byId(learner).orElseThrow().learner())
                            .isFalse();

                    int removes = timed(
                            prefix,
                            "remove",
                            () -> retry(() -> admin.remove(learner), EtcdException.MembershipRefused.class));
                    assertThat(admin.members().members()).extracting(Member::id).doesNotContain(learner);
                    assertThat(joined.awaitExit(Duration.ofSeconds(20)))
                            .as("removed member exits")
                            .isTrue();
                    System.out.printf("%s promote took %d call(s), remove %d call(s)%n", prefix, promotes, removes);
                } finally {
                    signals.resume();
                }
                assertThat(admin.members().members()).hasSize(3);
            }
        }
    }

    /** A listener that accepts TCP and never speaks HTTP/2 stands first in the list: every call goes on past it. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void aSilentEndpointIsPassedOver(EtcdVersion version) throws IOException {
        try (LocalEtcd etcd = new LocalEtcd(version);
                ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            EtcdProcess member = etcd.startFirst("m1");
            URI blackhole = URI.create("http://127.0.0.1:" + silent.getLocalPort());
            try (EtcdAdmin admin =
                    JetcdEtcdAdmin.FACTORY.open(EtcdConnection.plaintext(List.of(blackhole, member.clientUrl())))) {
                String prefix = version + " with a silent first endpoint, timeout "
                        + EtcdConnection.DEFAULT_TIMEOUT.toMillis() + " ms:";
                assertThat(timed(prefix, "member list (first)", admin::members).members())
                        .hasSize(1);
                assertThat(timed(prefix, "member list (again)", admin::members).members())
                        .hasSize(1);
                assertThat(timed(prefix, "alarms", admin::alarms)).isEmpty();
                assertThat(timed(prefix, "auth probe", admin::authEnabled)).isFalse();
                LocalEtcd.Peer peer = etcd.reserve("m2");
                MemberId learner = timed(prefix, "add learner", () -> admin.addLearner(peer.peerUrl()))
                        .byPeerUrl(peer.peerUrl())
                        .orElseThrow()
                        .id();
                timed(prefix, "remove learner", () -> {
                    admin.remove(learner);
                    return null;
                });
                assertThat(admin.members().members()).hasSize(1);
            }
        }
    }

    private static <T> T timed(String prefix, String call, Supplier<T> action) {
        long started = System.nanoTime();
        T result = action.get();
        System.out.printf("%s %-28s %5d ms%n", prefix, call, (System.nanoTime() - started) / 1_000_000);
        return result;
    }

    /** Repeats a membership change while etcd gives the refusal that clears on its own; returns the number of calls. */
    private static int retry(Runnable change, Class<? extends EtcdException> notYet) {
        long until = System.nanoTime() + CHANGE_WITHIN.toNanos();
        for (int attempt = 1; ; attempt++) {
            try {
                change.run();
                return attempt;
            } catch (EtcdException e) {
                if (!notYet.isInstance(e) || System.nanoTime() > until) {
                    throw e;
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", interrupted);
                }
            }
        }
    }

    /** SIGSTOP and SIGCONT for one process this test started, by its PID. */
    private record Signals(EtcdProcess process) {
        void stop() {
            send("-STOP");
        }

        void resume() {
            send("-CONT");
        }

        private void send(String signal) {
            try {
                Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid()))
                        .inheritIO()
                        .start();
                if (kill.waitFor() != 0) {
                    throw new AssertionError("kill " + signal + " " + process + " failed");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }
}
