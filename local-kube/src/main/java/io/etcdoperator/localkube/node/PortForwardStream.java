package io.etcdoperator.localkube.node;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The kubelet's WebSocket port forward ({@code GET /portForward/{namespace}/{pod}?port=...}, the API server turning
 * the client's {@code ports} into {@code port}), passed through by the API server unchanged: the {@code v4.channel.k8s.io} protocol, where every message starts with a channel byte,
 * port i has data channel 2i and error channel 2i+1, and the first message on each carries the port (2 bytes,
 * little-endian). One WebSocket per forwarded connection, so each port gets one TCP connection to the Pod IP.
 */
final class PortForwardStream {

    static final String PROTOCOL = "v4.channel.k8s.io";
    private static final String WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final int OP_CONTINUATION = 0;
    private static final int OP_TEXT = 1;
    private static final int OP_BINARY = 2;
    private static final int OP_CLOSE = 8;
    private static final int OP_PING = 9;

    private final KubeletRequest request;
    private final OutputStream out;
    private final List<Socket> targets = new ArrayList<>();

    private PortForwardStream(KubeletRequest request) {
        this.request = request;
        this.out = request.out();
    }

    /** Answers the request: 400 unless it is a WebSocket upgrade offering {@value #PROTOCOL} with valid ports. */
    static void serve(KubeletRequest request, Optional<String> podIp) throws IOException {
        String upgrade = request.header("Upgrade");
        String key = request.header("Sec-WebSocket-Key");
        if (upgrade == null || !"websocket".equalsIgnoreCase(upgrade) || key == null) {
            request.reply(400, "port forwarding here takes a WebSocket upgrade (" + PROTOCOL + "); SPDY is not served");
            return;
        }
        String offered = request.header("Sec-WebSocket-Protocol");
        if (offered == null
                || Arrays.stream(offered.split(",")).map(String::strip).noneMatch(PROTOCOL::equals)) {
            request.reply(400, "unsupported WebSocket subprotocol " + offered + "; expected " + PROTOCOL);
            return;
        }
        List<Integer> ports;
        try {
            ports = ports(request);
        } catch (IllegalArgumentException e) {
            request.reply(400, e.getMessage());
            return;
        }
        if (podIp.isEmpty()) {
            request.reply(404, "pod has no IP yet");
            return;
        }
        new PortForwardStream(request).run(key, podIp.get(), ports);
    }

    static List<Integer> ports(KubeletRequest request) {
        List<Integer> ports = new ArrayList<>();
        List<String> values = new ArrayList<>(request.query().getOrDefault("port", List.of()));
        values.addAll(
                request.query().getOrDefault("ports", List.of())); // as kubectl's URL says; the API server sends port
        for (String value : values) {
            for (String port : value.split(",")) {
                int number;
                try {
                    number = Integer.parseInt(port.strip());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("invalid port " + port);
                }
                if (number < 1 || number > 65535) {
                    throw new IllegalArgumentException("port " + number + " is out of range");
                }
                ports.add(number);
            }
        }
        if (ports.isEmpty()) {
            throw new IllegalArgumentException("query parameter port is required");
        }
        return ports;
    }

    static String accept(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1")
                    .digest((key.strip() + WEBSOCKET_GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JDK", e);
        }
    }

    private void run(String key, String podIp, List<Integer> ports) throws IOException {
        out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Accept: " + accept(key) + "\r\nSec-WebSocket-Protocol: " + PROTOCOL
                        + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        try {
            for (int i = 0; i < ports.size(); i++) {
                int port = ports.get(i);
                send(2 * i, new byte[] {(byte) port, (byte) (port >>> 8)});
                send(2 * i + 1, new byte[] {(byte) port, (byte) (port >>> 8)});
            }
            for (int i = 0; i < ports.size(); i++) {
                Socket target = new Socket();
                try {
                    target.connect(new InetSocketAddress(podIp, ports.get(i)), CONNECT_TIMEOUT_MS);
                } catch (IOException e) {
                    send(
                            2 * i + 1,
                            ("error forwarding port " + ports.get(i) + " to pod: " + e.getMessage())
                                    .getBytes(StandardCharsets.UTF_8));
                    close(1011);
                    return;
                }
                targets.add(target);
                int channel = 2 * i;
                Thread.ofVirtual().name("port-forward-" + ports.get(i)).start(() -> pump(target, channel));
            }
            readFrames();
        } finally {
            targets.forEach(PortForwardStream::closeQuietly);
        }
    }

    /** Pod to client: every read becomes one binary message on the port's data channel. */
    private void pump(Socket target, int channel) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = target.getInputStream()) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                send(channel, Arrays.copyOf(buffer, read));
            }
            close(1000);
        } catch (IOException e) {
            closeQuietlyAfter(e);
        }
    }

    /** Client to pod: data channel messages are written to that port's connection; close ends the stream. */
    private void readFrames() throws IOException {
        DataInputStream in = new DataInputStream(request.in());
        int channel = -1;
        boolean first = true;
        while (true) {
            int head;
            try {
                head = in.readUnsignedByte();
            } catch (EOFException e) {
                return;
            }
            boolean fin = (head & 0x80) != 0;
            int opcode = head & 0x0f;
            byte[] payload = payload(in);
            switch (opcode) {
                case OP_CLOSE -> {
                    close(1000);
                    return;
                }
                case OP_PING -> frame(0xA, payload);
                case OP_TEXT, OP_BINARY, OP_CONTINUATION -> {
                    int from = 0;
                    if (first) {
                        if (payload.length == 0) {
                            continue;
                        }
                        channel = payload[0] & 0xff;
                        from = 1;
                    }
                    first = fin;
                    if (channel % 2 == 0 && channel / 2 < targets.size() && payload.length > from) {
                        OutputStream target = targets.get(channel / 2).getOutputStream();
                        target.write(payload, from, payload.length - from);
                        target.flush();
                    }
                }
                default -> {} // pong and reserved opcodes carry nothing for us
            }
        }
    }

    private static byte[] payload(DataInputStream in) throws IOException {
        int second = in.readUnsignedByte();
        boolean masked = (second & 0x80) != 0;
        long length = second & 0x7f;
        if (length == 126) {
            length = in.readUnsignedShort();
        } else if (length == 127) {
            length = in.readLong();
        }
        if (length > 64L * 1024 * 1024) {
            throw new IOException("WebSocket frame of " + length + " bytes is too large");
        }
        byte[] mask = new byte[4];
        if (masked) {
            in.readFully(mask);
        }
        byte[] payload = new byte[(int) length];
        in.readFully(payload);
        if (masked) {
            for (int i = 0; i < payload.length; i++) {
                payload[i] ^= mask[i % 4];
            }
        }
        return payload;
    }

    private void send(int channel, byte[] data) throws IOException {
        byte[] message = new byte[data.length + 1];
        message[0] = (byte) channel;
        System.arraycopy(data, 0, message, 1, data.length);
        frame(OP_BINARY, message);
    }

    private void close(int code) throws IOException {
        frame(OP_CLOSE, new byte[] {(byte) (code >>> 8), (byte) code});
    }

    /** One unmasked, final frame (servers never mask); writers are the pumps and the reader, hence the lock. */
    private synchronized void frame(int opcode, byte[] payload) throws IOException {
        out.write(0x80 | opcode);
        if (payload.length < 126) {
            out.write(payload.length);
        } else if (payload.length <= 0xffff) {
            out.write(126);
            out.write(payload.length >>> 8);
            out.write(payload.length);
        } else {
            out.write(127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                out.write((int) ((long) payload.length >>> shift));
            }
        }
        out.write(payload);
        out.flush();
    }

    private void closeQuietlyAfter(IOException e) {
        try {
            close(1011);
        } catch (IOException ignored) {
            // the client is gone as well
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
