package io.etcdoperator.localkube.network;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The cluster DNS for Pods on the bridge: A records for the names {@link ClusterHosts} knows, NXDOMAIN for every
 * other name, so lookups never leave the machine and a new Pod resolves at once (a process's resolver re-reads a
 * changed hosts file only every few seconds; etcd's peers then stall for a prober round). UDP only, no recursion.
 */
public final class ClusterDns implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ClusterDns.class.getName());
    private static final int TYPE_A = 1;
    private static final int CLASS_IN = 1;
    private static final int NXDOMAIN = 3;
    private static final int FORMERR = 1;

    private final DatagramSocket socket;
    private final Function<String, Optional<String>> addresses;
    private final Thread server;

    private ClusterDns(DatagramSocket socket, Function<String, Optional<String>> addresses) {
        this.socket = socket;
        this.addresses = addresses;
        this.server = Thread.ofPlatform().daemon().name("cluster-dns").start(this::serve);
    }

    /** Serves on {@code address}:53; {@code addresses} maps a name (lower case, no trailing dot) to an IPv4 address. */
    public static ClusterDns serve(String address, Function<String, Optional<String>> addresses) {
        try {
            return new ClusterDns(
                    new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 53)), addresses);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve DNS on " + address + ":53", e);
        }
    }

    private void serve() {
        byte[] buffer = new byte[1500];
        while (!socket.isClosed()) {
            DatagramPacket query = new DatagramPacket(buffer, buffer.length);
            try {
                socket.receive(query);
                byte[] answer = answer(buffer, query.getLength(), addresses);
                socket.send(new DatagramPacket(answer, answer.length, query.getSocketAddress()));
            } catch (SocketException e) {
                return; // closed
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "DNS query not answered: " + e);
            }
        }
    }

    /** The response to one query message: its question echoed, then at most one A record. */
    static byte[] answer(byte[] message, int length, Function<String, Optional<String>> addresses) {
        ByteBuffer in = ByteBuffer.wrap(message, 0, length);
        int id = in.getShort() & 0xffff;
        int flags = in.getShort() & 0xffff;
        int questions = in.getShort() & 0xffff;
        in.position(12);
        StringBuilder name = new StringBuilder();
        int questionStart = 12;
        if (questions != 1) {
            return header(id, flags, FORMERR, 0, 0, ByteBuffer.allocate(12)).array();
        }
        for (int label = in.get() & 0xff; label != 0; label = in.get() & 0xff) {
            if (label > 63) {
                return header(id, flags, FORMERR, 0, 0, ByteBuffer.allocate(12)).array();
            }
            byte[] bytes = new byte[label];
            in.get(bytes);
            name.append(name.isEmpty() ? "" : ".").append(new String(bytes, StandardCharsets.US_ASCII));
        }
        int type = in.getShort() & 0xffff;
        int klass = in.getShort() & 0xffff;
        int questionEnd = in.position();
        Optional<String> ip = addresses.apply(name.toString().toLowerCase(Locale.ROOT));
        boolean answered = ip.isPresent() && type == TYPE_A && klass == CLASS_IN;
        ByteBuffer out = ByteBuffer.allocate(12 + (questionEnd - questionStart) + (answered ? 16 : 0));
        header(id, flags, ip.isPresent() ? 0 : NXDOMAIN, 1, answered ? 1 : 0, out);
        out.put(message, questionStart, questionEnd - questionStart);
        if (answered) {
            out.putShort((short) 0xc00c)
                    .putShort((short) TYPE_A)
                    .putShort((short) CLASS_IN)
                    .putInt(0)
                    .putShort((short) 4);
            for (String octet : ip.get().split("\\.")) {
                out.put((byte) Integer.parseInt(octet));
            }
        }
        return out.array();
    }

    /** Response header: the query's id, opcode and recursion-desired bit, authoritative, recursion available. */
    private static ByteBuffer header(int id, int queryFlags, int rcode, int questions, int answers, ByteBuffer out) {
        int flags = 0x8000 | (queryFlags & 0x7900) | 0x0400 | 0x0080 | rcode;
        return out.putShort((short) id)
                .putShort((short) flags)
                .putShort((short) questions)
                .putShort((short) answers)
                .putShort((short) 0)
                .putShort((short) 0);
    }

    @Override
    public void close() {
        socket.close();
        try {
            server.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
