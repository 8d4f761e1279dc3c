package io.etcdoperator.localkube.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The kubelet's WebSocket port forward against an echo server, frame by frame, without an API server. */
class PortForwardStreamTest {

    private static final String UPGRADE = "GET /portForward/ns/pod?port=%d HTTP/1.1\r\nHost: x\r\n"
            + "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: %s\r\n\r\n";

    @Test
    void handshakeAnswersTheKeyAsRfc6455Says() {
        assertThat(PortForwardStream.accept("dGhlIHNhbXBsZSBub25jZQ==")).isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    }

    @Test
    void bytesGoToThePodPortAndComeBackOnTheDataChannel() throws Exception {
        try (ServerSocket echo = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> echoOnce(echo));
            PipedOutputStream toServer = new PipedOutputStream();
            PipedInputStream serverIn = new PipedInputStream(toServer, 1 << 20);
            PipedInputStream fromServer = new PipedInputStream(1 << 20);
            PipedOutputStream serverOut = new PipedOutputStream(fromServer);
            toServer.write(String.format(UPGRADE, echo.getLocalPort(), "v4.channel.k8s.io, base64.channel.k8s.io")
                    .getBytes(StandardCharsets.US_ASCII));
            Thread server = Thread.ofVirtual().start(() -> {
                try (serverOut) {
                    KubeletRequest request = KubeletRequest.read(serverIn, serverOut);
                    PortForwardStream.serve(request, Optional.of("127.0.0.1"));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            DataInputStream in = new DataInputStream(fromServer);
            String head = head(in);
            assertThat(head)
                    .startsWith("HTTP/1.1 101")
                    .contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
                    .contains("Sec-WebSocket-Protocol: v4.channel.k8s.io");
            int port = echo.getLocalPort();
            byte[] portBytes = {(byte) port, (byte) (port >>> 8)};
            assertThat(frame(in)).containsExactly(concat(new byte[] {0}, portBytes));
            assertThat(frame(in)).containsExactly(concat(new byte[] {1}, portBytes));

            byte[] big = new byte[70_000];
            Arrays.fill(big, (byte) 'x');
            toServer.write(maskedBinary(concat(new byte[] {0}, big)));
            toServer.flush();
            ByteArrayOutputStream echoed = new ByteArrayOutputStream();
            while (echoed.size() < big.length) {
                byte[] message = frame(in);
                assertThat(message[0]).as("data channel").isZero();
                echoed.write(message, 1, message.length - 1);
            }
            assertThat(echoed.toByteArray()).isEqualTo(big);

            toServer.write(new byte[] {(byte) 0x88, (byte) 0x80, 1, 2, 3, 4}); // masked close, no payload
            toServer.flush();
            server.join(5_000);
            assertThat(server.isAlive())
                    .as("the stream ends after a close frame")
                    .isFalse();
        }
    }

    @Test
    void aPlainRequestOrAnotherProtocolIsRefused() throws IOException {
        assertThat(answer("GET /portForward/ns/pod?ports=1 HTTP/1.1\r\nHost: x\r\n\r\n"))
                .startsWith("HTTP/1.1 400")
                .contains("WebSocket upgrade");
        assertThat(answer(String.format(UPGRADE, 1, "SPDY/3.1+portforward.k8s.io")))
                .startsWith("HTTP/1.1 400")
                .contains("unsupported WebSocket subprotocol");
        assertThat(answer(String.format(UPGRADE, 0, "v4.channel.k8s.io")))
                .startsWith("HTTP/1.1 400")
                .contains("out of range");
    }

    private static String answer(String request) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        KubeletRequest parsed =
                KubeletRequest.read(new ByteArrayInputStream(request.getBytes(StandardCharsets.US_ASCII)), out);
        PortForwardStream.serve(parsed, Optional.of("127.0.0.1"));
        return out.toString(StandardCharsets.US_ASCII);
    }

    private static void echoOnce(ServerSocket server) {
        try (Socket socket = server.accept();
                InputStream in = socket.getInputStream();
                OutputStream out = socket.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException e) {
            // the test ends the connection
        }
    }

    private static String head(DataInputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            head.append((char) in.readUnsignedByte());
        }
        return head.toString();
    }

    /** Reads one unmasked server frame and returns its payload. */
    private static byte[] frame(DataInputStream in) throws IOException {
        int first = in.readUnsignedByte();
        assertThat(first & 0x80).as("final frame").isNotZero();
        long length = in.readUnsignedByte() & 0x7f;
        if (length == 126) {
            length = in.readUnsignedShort();
        } else if (length == 127) {
            length = in.readLong();
        }
        byte[] payload = new byte[(int) length];
        in.readFully(payload);
        return payload;
    }

    private static byte[] maskedBinary(byte[] payload) {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write(0x82);
        frame.write(0x80 | 127);
        for (int shift = 56; shift >= 0; shift -= 8) {
            frame.write((int) ((long) payload.length >>> shift));
        }
        byte[] mask = {7, 11, 13, 17};
        frame.writeBytes(mask);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ mask[i % 4]);
        }
        return frame.toByteArray();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
