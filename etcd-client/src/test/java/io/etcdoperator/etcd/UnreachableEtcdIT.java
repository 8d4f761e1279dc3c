package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Every call on an endpoint that does not answer ends in Unavailable, bounded by the connection timeout. */
class UnreachableEtcdIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final Duration HANG_GUARD = TIMEOUT.plusSeconds(5);

    @Test
    void refusedConnectionIsUnavailable() throws IOException {
        URI endpoint;
        try (ServerSocket closedAgain = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            endpoint = URI.create("http://127.0.0.1:" + closedAgain.getLocalPort());
        }
        assertEveryCallUnavailable("refused", endpoint);
    }

    /** A listener that accepts TCP but never speaks HTTP/2: only the timeout can end the calls. */
    @Test
    void silentListenerIsUnavailableAfterTheTimeout() throws IOException {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            assertEveryCallUnavailable("silent", URI.create("http://127.0.0.1:" + silent.getLocalPort()));
        }
    }

    private static void assertEveryCallUnavailable(String kind, URI endpoint) {
        try (EtcdAdmin admin = JetcdEtcdAdmin.FACTORY.open(
                EtcdConnection.plaintext(List.of(endpoint)).withTimeout(TIMEOUT))) {
            assertUnavailable(kind, "members", admin, EtcdAdmin::members);
            assertUnavailable(kind, "addLearner", admin, a -> a.addLearner(URI.create("http://127.0.0.1:1")));
            assertUnavailable(kind, "promote", admin, a -> a.promote(new MemberId(1)));
            assertUnavailable(kind, "remove", admin, a -> a.remove(new MemberId(1)));
            assertUnavailable(kind, "status", admin, a -> a.status(endpoint));
            assertUnavailable(kind, "authEnabled", admin, EtcdAdmin::authEnabled);
        }
    }

    private static void assertUnavailable(String kind, String call, EtcdAdmin admin, Consumer<EtcdAdmin> action) {
        long started = System.nanoTime();
        Throwable failure = assertTimeoutPreemptively(HANG_GUARD, () -> catchThrowable(() -> action.accept(admin)));
        long elapsedMs = (System.nanoTime() - started) / 1_000_000;
        System.out.printf(
                "%s endpoint: %-12s -> %s after %d ms%n",
                kind, call, failure == null ? "no failure" : failure.getClass().getSimpleName(), elapsedMs);
        assertThat(failure).as(call).isInstanceOf(EtcdException.Unavailable.class);
    }
}
