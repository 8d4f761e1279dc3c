package io.etcdoperator.localkube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.etcdoperator.localkube.LoopbackPorts.Range;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LoopbackPortsTest {

    /** On a machine whose ephemeral range starts well above 10000, as the kernel's default 32768-60999 does. */
    @Test
    void portsAreDistinctBelowTheEphemeralRangeAndBindable() throws IOException {
        int low = LoopbackPorts.ephemeralRange().from();
        assumeThat(low).isGreaterThan(LoopbackPorts.FLOOR + 1_000);

        int[] ports = LoopbackPorts.reserve(20);

        assertThat(ports).hasSize(20).doesNotHaveDuplicates();
        for (int port : ports) {
            assertThat(port).isBetween(LoopbackPorts.FLOOR, low - 1);
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port));
            }
        }
    }

    @Test
    void noPortIsHandedOutTwice() {
        Set<Integer> seen = new HashSet<>();
        for (int call = 0; call < 50; call++) {
            for (int port : LoopbackPorts.reserve(4)) {
                assertThat(seen.add(port)).as("port %d handed out again", port).isTrue();
            }
        }
    }

    @Test
    void skipsAPortSomethingListensOn() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            assertThat(LoopbackPorts.bindable(taken.getLocalPort())).isFalse();
        }
        int[] ports = LoopbackPorts.reserve(1);
        assertThat(LoopbackPorts.bindable(ports[0])).isTrue();
    }

    @Test
    void readsTheKernelsEphemeralRangeAndFallsBackToItsDefault() {
        assertThat(LoopbackPorts.ephemeralRange(Optional.of("32768\t60999\n"))).isEqualTo(new Range(32768, 61000));
        assertThat(LoopbackPorts.ephemeralRange(Optional.of("40000 50000"))).isEqualTo(new Range(40000, 50001));
        assertThat(LoopbackPorts.ephemeralRange(Optional.of("garbage")).from())
                .isEqualTo(LoopbackPorts.DEFAULT_EPHEMERAL_LOW);
        assertThat(LoopbackPorts.ephemeralRange(Optional.empty()).from())
                .isEqualTo(LoopbackPorts.DEFAULT_EPHEMERAL_LOW);
    }

    @Test
    void candidatesLieOutsideTheEphemeralRange() {
        assertThat(LoopbackPorts.candidates(new Range(32768, 61000))).isEqualTo(new Range(10000, 32768));
        assertThat(LoopbackPorts.candidates()).isEqualTo(LoopbackPorts.candidates(LoopbackPorts.ephemeralRange()));
        // no room below: above the range, then anything unprivileged
        assertThat(LoopbackPorts.candidates(new Range(1024, 50000))).isEqualTo(new Range(50000, 65536));
        assertThat(LoopbackPorts.candidates(new Range(1024, 65536))).isEqualTo(new Range(10000, 65536));
    }

    @Test
    void reservesNothingForZero() {
        assertThat(LoopbackPorts.reserve(0)).isEmpty();
    }
}
