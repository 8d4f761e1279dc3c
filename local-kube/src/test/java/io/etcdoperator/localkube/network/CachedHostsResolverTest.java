package io.etcdoperator.localkube.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolver.LookupPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CachedHostsResolverTest {

    private static final LookupPolicy ANY = LookupPolicy.of(LookupPolicy.IPV4 | LookupPolicy.IPV6);

    @TempDir
    Path dir;

    private final AtomicLong clock = new AtomicLong(1_000_000_000_000L);

    @Test
    void answersAsTheHostsFileSays() throws Exception {
        Path hosts = write("# managed by local-kube\n127.0.0.1\tlocalhost\n"
                + "10.0.0.7\tm-1.c.ns.svc.cluster.local m-1.c.ns.svc # a comment\n"
                + "10.0.0.8\tc.ns.svc\n10.0.0.9\tc.ns.svc\n");
        CachedHostsResolver resolver = new CachedHostsResolver(hosts, clock::get);

        assertThat(addresses(resolver, "M-1.c.ns.svc")).containsExactly("10.0.0.7");
        assertThat(addresses(resolver, "m-1.c.ns.svc.cluster.local")).containsExactly("10.0.0.7");
        assertThat(addresses(resolver, "c.ns.svc")).containsExactly("10.0.0.8", "10.0.0.9");
        assertThat(addresses(resolver, "localhost")).containsExactly("127.0.0.1");
        assertThat(resolver.lookupByAddress(new byte[] {10, 0, 0, 8})).isEqualTo("c.ns.svc");
        assertThatThrownBy(() -> resolver.lookupByAddress(new byte[] {10, 0, 0, 99}))
                .isInstanceOf(UnknownHostException.class);
        assertThatThrownBy(() -> resolver.lookupByName("a", ANY)).isInstanceOf(UnknownHostException.class);
        assertThatThrownBy(() -> resolver.lookupByName("comment", ANY)).isInstanceOf(UnknownHostException.class);
        assertThatThrownBy(() -> resolver.lookupByName("m-1.c.ns.svc", LookupPolicy.of(LookupPolicy.IPV6)))
                .isInstanceOf(UnknownHostException.class);
    }

    @Test
    void readsAddressLiteralsWithoutLookingAnythingUp() {
        assertThat(CachedHostsResolver.literal("10.0.0.255")).containsExactly(10, 0, 0, (byte) 255);
        assertThat(CachedHostsResolver.literal("::1")).hasSize(16);
        for (String notOne : List.of("10.0.0", "10.0.0.256", "10.0.0.1.2", "a.b.c.d", "10..0.1", "host", "1:x:y")) {
            assertThat(CachedHostsResolver.literal(notOne)).as(notOne).isNull();
        }
    }

    @Test
    void seesAChangeOfTheFileWithinAQuarterSecond() throws Exception {
        Path hosts = write("10.0.0.7\tm-1\n");
        CachedHostsResolver resolver = new CachedHostsResolver(hosts, clock::get);
        assertThat(addresses(resolver, "m-1")).containsExactly("10.0.0.7");

        Files.writeString(hosts, "10.0.0.70\tm-1\n10.0.0.8\tm-2\n");
        Files.setLastModifiedTime(hosts, FileTime.from(Instant.now().plusSeconds(5)));
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(100));
        assertThat(addresses(resolver, "m-1")).as("looked at 100 ms ago").containsExactly("10.0.0.7");

        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(200));
        assertThat(addresses(resolver, "m-1")).containsExactly("10.0.0.70");
        assertThat(addresses(resolver, "m-2")).containsExactly("10.0.0.8");
    }

    @Test
    void anUnchangedFileIsReadAgainAfterTenSeconds() throws Exception {
        Path hosts = write("10.0.0.7\tm-1\n");
        CachedHostsResolver resolver = new CachedHostsResolver(hosts, clock::get);
        assertThat(addresses(resolver, "m-1")).containsExactly("10.0.0.7");
        FileTime written = Files.getLastModifiedTime(hosts);
        Files.writeString(hosts, "10.0.0.9\tm-1\n"); // same size, the same time: as a rewrite caught half-done
        Files.setLastModifiedTime(hosts, written);

        clock.addAndGet(TimeUnit.SECONDS.toNanos(5));
        assertThat(addresses(resolver, "m-1")).containsExactly("10.0.0.7");
        clock.addAndGet(TimeUnit.SECONDS.toNanos(6));
        assertThat(addresses(resolver, "m-1")).containsExactly("10.0.0.9");
    }

    @Test
    void aMissingFileAnswersNothing() {
        CachedHostsResolver resolver = new CachedHostsResolver(dir.resolve("none"), clock::get);
        assertThatThrownBy(() -> resolver.lookupByName("m-1", ANY)).isInstanceOf(UnknownHostException.class);
    }

    /** The name is in no file the platform resolver reads: only the agent's resolver can answer it. */
    @Test
    void theJdkUsesItFromTheAgentJar() throws Exception {
        Path hosts = write("10.1.2.3\tmember.sim.svc\n");
        Path jar = CachedHostsResolver.agentJar(dir.resolve("agent"));
        String output = FreshJvmLookup.resolve(
                dir, List.of("-javaagent:" + jar, "-D" + CachedHostsResolver.PROPERTY + "=" + hosts), "member.sim.svc");
        assertThat(output).isEqualTo("10.1.2.3");
    }

    private Path write(String text) throws Exception {
        Path hosts = dir.resolve("hosts");
        Files.writeString(hosts, text);
        return hosts;
    }

    private static List<String> addresses(InetAddressResolver resolver, String name) throws UnknownHostException {
        return resolver.lookupByName(name, ANY).map(InetAddress::getHostAddress).toList();
    }
}
