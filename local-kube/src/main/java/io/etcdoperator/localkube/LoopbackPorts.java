package io.etcdoperator.localkube;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Free TCP ports on 127.0.0.1, so that several control planes can run side by side. */
public final class LoopbackPorts {

    private LoopbackPorts() {}

    /** Returns {@code count} distinct ports that were free a moment ago; a process may still race us to one. */
    public static int[] reserve(int count) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                held.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            }
            return held.stream().mapToInt(ServerSocket::getLocalPort).toArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free loopback port", e);
        } finally {
            held.forEach(LoopbackPorts::closeQuietly);
        }
    }

    private static void closeQuietly(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // the port is released either way
        }
    }
}
