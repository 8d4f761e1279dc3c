package io.etcdoperator.localkube;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Free TCP ports on 127.0.0.1 for processes started later, so that several control planes (in one JVM or in several)
 * can run side by side.
 *
 * <p>A port is handed out now and bound by its process seconds later; in between anything may take it. Ports in the
 * kernel's ephemeral range ({@code /proc/sys/net/ipv4/ip_local_port_range}) are the likeliest to be taken, since
 * every outgoing connection and every {@code bind(0)} of any process gets one, so these come from below that range
 * and above the ports of well-known local services: [{@value #FLOOR}, ephemeral low bound). Each port is chosen at
 * random (two JVMs seldom pick the same one), checked by binding it on 127.0.0.1 (one something listens on is
 * skipped), and never handed out twice by this JVM.
 */
public final class LoopbackPorts {

    /** The lowest port handed out: below it are the fixed ports of local services (8080, 9090, 9100 ...). */
    static final int FLOOR = 10_000;

    /** The kernel's default ephemeral low bound, assumed when the range cannot be read. */
    static final int DEFAULT_EPHEMERAL_LOW = 32_768;

    private static final int DEFAULT_EPHEMERAL_HIGH = 60_999;
    private static final int MAX_PORT = 65_535;
    /** Fewer candidates than this below the ephemeral range, and the range above it is used, or any port at last. */
    private static final int MIN_CANDIDATES = 1_000;

    private static final int ATTEMPTS_PER_PORT = 200;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final InetAddress LOOPBACK = loopback();
    private static final Range CANDIDATES = candidates(ephemeralRange());
    private static final Random RANDOM = new SecureRandom();
    /** Every port this JVM handed out; guarded by the class's lock. */
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private LoopbackPorts() {}

    /**
     * Returns {@code count} ports, distinct from each other and from every port this JVM handed out before, that
     * nothing listened on a moment ago. Another process may still race us to one, but not as the kernel's pick for
     * an outgoing connection or a {@code bind(0)}.
     */
    public static synchronized int[] reserve(int count) {
        int[] ports = new int[count];
        for (int i = 0; i < count; i++) {
            ports[i] = next();
        }
        return ports;
    }

    /** The ports {@link #reserve} picks from: {@code from} inclusive, {@code to} exclusive. */
    record Range(int from, int to) {

        int size() {
            return to - from;
        }

        boolean contains(int port) {
            return port >= from && port < to;
        }
    }

    static Range candidates() {
        return CANDIDATES;
    }

    /** Below the ephemeral range {@code [low, high]} if there is room; else above it; else any unprivileged port. */
    static Range candidates(Range ephemeral) {
        Range below = new Range(FLOOR, Math.max(FLOOR, ephemeral.from()));
        if (below.size() >= MIN_CANDIDATES) {
            return below;
        }
        Range above = new Range(Math.max(FLOOR, ephemeral.to()), MAX_PORT + 1);
        if (above.size() >= MIN_CANDIDATES) {
            return above;
        }
        return new Range(FLOOR, MAX_PORT + 1);
    }

    /**
     * The kernel's ephemeral range as a {@link Range} ({@code to} exclusive), parsed from the contents of {@code
     * ip_local_port_range} ("32768\t60999"); the kernel's default when missing or unreadable.
     */
    static Range ephemeralRange(Optional<String> ipLocalPortRange) {
        try {
            String[] bounds = ipLocalPortRange.orElseThrow().trim().split("\\s+");
            int low = Integer.parseInt(bounds[0]);
            int high = Integer.parseInt(bounds[1]);
            if (bounds.length == 2 && 0 < low && low <= high && high <= MAX_PORT) {
                return new Range(low, high + 1);
            }
        } catch (RuntimeException unreadable) {
            // fall through to the default
        }
        return new Range(DEFAULT_EPHEMERAL_LOW, DEFAULT_EPHEMERAL_HIGH + 1);
    }

    static Range ephemeralRange() {
        try {
            return ephemeralRange(Optional.of(Files.readString(EPHEMERAL_RANGE)));
        } catch (IOException | RuntimeException e) {
            return ephemeralRange(Optional.empty());
        }
    }

    private static int next() {
        for (int attempt = 0; attempt < ATTEMPTS_PER_PORT; attempt++) {
            int port = CANDIDATES.from() + RANDOM.nextInt(CANDIDATES.size());
            if (!HANDED_OUT.contains(port) && bindable(port)) {
                HANDED_OUT.add(port);
                return port;
            }
        }
        throw new IllegalStateException("no free loopback port in [" + CANDIDATES.from() + ", " + CANDIDATES.to()
                + ") after " + ATTEMPTS_PER_PORT + " tries (" + HANDED_OUT.size() + " handed out by this JVM)");
    }

    /** True if 127.0.0.1:{@code port} could be bound just now, as the process that gets it will bind it. */
    static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(LOOPBACK, port), 1);
            return true;
        } catch (IOException inUse) {
            return false;
        }
    }

    private static InetAddress loopback() {
        try {
            return InetAddress.getByAddress("localhost", new byte[] {127, 0, 0, 1});
        } catch (UnknownHostException e) {
            throw new AssertionError("four bytes are a valid IPv4 address", e);
        }
    }
}
