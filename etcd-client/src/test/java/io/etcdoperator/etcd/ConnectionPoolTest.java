package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConnectionPoolTest {

    private static final Duration IDLE = Duration.ofMinutes(5);

    private final List<EtcdConnection> opened = new ArrayList<>();
    private final AtomicInteger closed = new AtomicInteger();
    private Instant now = Instant.parse("2026-11-24T10:00:00Z");
    private final ConnectionPool pool = new ConnectionPool(this::open, IDLE, new Clock() {
        @Override
        public ZoneOffset getZone() {
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
    });

    @Test
    void theSameConnectionIsReusedAcrossPasses() {
        EtcdAdmin first = pool.lease("ns/a", plain("a-0", "a-1"));
        EtcdAdmin second = pool.lease("ns/a", plain("a-0", "a-1"));
        assertThat(second).isSameAs(first);
        assertThat(opened).hasSize(1);
        assertThat(closed).hasValue(0);
    }

    @Test
    void newEndpointsReopenAndCloseTheOldOne() {
        EtcdAdmin first = pool.lease("ns/a", plain("a-0"));
        EtcdAdmin second = pool.lease("ns/a", plain("a-0", "a-1"));
        assertThat(second).isNotSameAs(first);
        assertThat(closed).hasValue(1);
        assertThat(pool.size()).isEqualTo(1);
    }

    @Test
    void rotatedTlsMaterialOrPasswordReopens() {
        var tls = new EtcdConnection.ClientTls("ca".getBytes(), "crt".getBytes(), "key-1".getBytes());
        var rotated = new EtcdConnection.ClientTls("ca".getBytes(), "crt".getBytes(), "key-2".getBytes());
        var creds = Optional.of(new EtcdConnection.Credentials("root", "pw-1"));
        pool.lease("ns/a", connection(Optional.of(tls), creds));
        pool.lease(
                "ns/a",
                connection(
                        Optional.of(
                                new EtcdConnection.ClientTls("ca".getBytes(), "crt".getBytes(), "key-1".getBytes())),
                        creds));
        assertThat(opened).as("equal bytes in new arrays are the same material").hasSize(1);
        pool.lease("ns/a", connection(Optional.of(rotated), creds));
        pool.lease(
                "ns/a", connection(Optional.of(rotated), Optional.of(new EtcdConnection.Credentials("root", "pw-2"))));
        assertThat(opened).hasSize(3);
        assertThat(closed).hasValue(2);
    }

    @Test
    void clustersHaveTheirOwnConnection() {
        assertThat(pool.lease("ns/a", plain("x"))).isNotSameAs(pool.lease("ns/b", plain("x")));
        assertThat(pool.size()).isEqualTo(2);
    }

    @Test
    void discardClosesSoTheNextLeaseReopens() {
        pool.lease("ns/a", plain("a-0"));
        pool.discard("ns/a");
        assertThat(closed).hasValue(1);
        pool.lease("ns/a", plain("a-0"));
        assertThat(opened).hasSize(2);
    }

    @Test
    void connectionsUnusedForTheIdleTimeAreClosed() {
        pool.lease("ns/gone", plain("g"));
        now = now.plus(IDLE).plusSeconds(1);
        pool.lease("ns/a", plain("a-0"));
        assertThat(closed).hasValue(1);
        assertThat(pool.size()).isEqualTo(1);
    }

    @Test
    void theFingerprintHoldsNoSecret() {
        var c = connection(Optional.empty(), Optional.of(new EtcdConnection.Credentials("root", "s3cret")));
        assertThat(ConnectionPool.fingerprint(c)).doesNotContain("s3cret").hasSize(64);
    }

    private static EtcdConnection plain(String... hosts) {
        return EtcdConnection.plaintext(Arrays.stream(hosts)
                .map(h -> URI.create("http://" + h + ":2379"))
                .toList());
    }

    private static EtcdConnection connection(
            Optional<EtcdConnection.ClientTls> tls, Optional<EtcdConnection.Credentials> creds) {
        return new EtcdConnection(List.of(URI.create("https://a-0:2379")), tls, creds, EtcdConnection.DEFAULT_TIMEOUT);
    }

    private EtcdAdmin open(EtcdConnection connection) {
        opened.add(connection);
        return (EtcdAdmin) Proxy.newProxyInstance(
                EtcdAdmin.class.getClassLoader(),
                new Class<?>[] {EtcdAdmin.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "close" -> {
                        closed.incrementAndGet();
                        yield null;
                    }
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "fake";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
