package io.etcdoperator.localkube.node;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;

/**
 * The part of the kubelet API that {@code kubectl logs} and {@code kubectl port-forward} reach through the API server:
 * {@code GET /containerLogs/{namespace}/{pod}/{container}} with {@code follow}, {@code tailLines},
 * {@code limitBytes} and {@code previous}, and {@code GET /portForward/{namespace}/{pod}} (a WebSocket, see
 * {@link PortForwardStream}), over HTTPS on 127.0.0.1 (the API server does not verify the kubelet's certificate unless
 * told to). {@code timestamps} is ignored: logs are stored without them.
 */
final class KubeletServer implements AutoCloseable {

    private static final Logger LOG = System.getLogger(KubeletServer.class.getName());
    private static final Duration FOLLOW_POLL = Duration.ofMillis(200);

    private final SimulatedNode node;
    private final SSLServerSocket server;
    private final ExecutorService connections = Executors.newVirtualThreadPerTaskExecutor();

    KubeletServer(SimulatedNode node, SSLContext tls) {
        this.node = node;
        try {
            server = (SSLServerSocket)
                    tls.getServerSocketFactory().createServerSocket(0, 16, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the kubelet port", e);
        }
        Thread.ofVirtual().name("kubelet-" + node.name()).start(this::accept);
    }

    int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                connections.execute(() -> serve(socket));
            } catch (IOException | RejectedExecutionException e) {
                if (!server.isClosed()) {
                    LOG.log(Level.WARNING, "kubelet port of node " + node.name() + ": " + e.getMessage());
                }
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            KubeletRequest request = KubeletRequest.read(
                    new BufferedInputStream(socket.getInputStream()),
                    new BufferedOutputStream(socket.getOutputStream()));
            if (!"GET".equals(request.method())) {
                request.reply(405, "only GET is served");
            } else if (request.path().startsWith("/containerLogs/")) {
                containerLogs(request);
            } else if (request.path().startsWith("/portForward/")) {
                portForward(request);
            } else if (request.path().equals("/healthz")) {
                request.reply(200, "ok");
            } else {
                request.reply(404, "not found: " + request.path());
            }
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "kubelet connection ended: " + e.getMessage());
        }
    }

    private void portForward(KubeletRequest request) throws IOException {
        String[] parts = request.path().split("/");
        if (parts.length != 4) {
            request.reply(404, "expected GET /portForward/{namespace}/{pod}");
            return;
        }
        Optional<PodWorker> worker = node.worker(parts[2], parts[3]);
        if (worker.isEmpty()) {
            request.reply(404, "pod " + parts[2] + "/" + parts[3] + " not found on node " + node.name());
            return;
        }
        PortForwardStream.serve(request, worker.get().ip());
    }

    private void containerLogs(KubeletRequest request) throws IOException {
        String[] parts = request.path().split("/");
        if (parts.length != 5) {
            request.reply(404, "expected GET /containerLogs/{namespace}/{pod}/{container}");
            return;
        }
        String namespace = parts[2];
        String podName = parts[3];
        String container = parts[4];
        boolean previous = Boolean.parseBoolean(request.parameter("previous"));
        Optional<PodWorker> worker = node.worker(namespace, podName);
        if (worker.isEmpty()) {
            request.reply(404, "pod " + namespace + "/" + podName + " not found on node " + node.name());
            return;
        }
        if (!worker.get().containerNames().contains(container)) {
            request.reply(400, "container " + container + " is not valid for pod " + podName);
            return;
        }
        Optional<Path> log = worker.get().log(container, previous);
        if (log.isEmpty()) {
            request.reply(
                    400,
                    previous
                            ? "previous terminated container \"" + container + "\" in pod \"" + podName + "\" not found"
                            : "container \"" + container + "\" in pod \"" + podName + "\" is waiting to start");
            return;
        }
        OutputStream body = request.streamBody("text/plain; charset=utf-8");
        long position = writeExisting(log.get(), request, body);
        if (!previous && Boolean.parseBoolean(request.parameter("follow"))) {
            follow(log.get(), position, body, () -> worker.get().running(container) && node.running());
        }
    }

    private static long writeExisting(Path log, KubeletRequest request, OutputStream body) throws IOException {
        byte[] content = Files.readAllBytes(log);
        String tail = request.parameter("tailLines");
        int from = tail == null ? 0 : startOfLastLines(content, Integer.parseInt(tail));
        int length = content.length - from;
        String limit = request.parameter("limitBytes");
        if (limit != null) {
            length = (int) Math.min(length, Long.parseLong(limit));
        }
        body.write(content, from, length);
        body.flush();
        return content.length;
    }

    static int startOfLastLines(byte[] content, int lines) {
        if (lines <= 0) {
            return content.length;
        }
        int end = content.length;
        if (end > 0 && content[end - 1] == '\n') {
            end--;
        }
        int seen = 0;
        for (int i = end - 1; i >= 0; i--) {
            if (content[i] == '\n' && ++seen == lines) {
                return i + 1;
            }
        }
        return 0;
    }

    private static void follow(Path log, long position, OutputStream body, BooleanSupplier live) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            byte[] buffer = new byte[8192];
            boolean last = false;
            while (true) {
                file.seek(position);
                int read;
                while ((read = file.read(buffer)) > 0) {
                    body.write(buffer, 0, read);
                    position += read;
                }
                body.flush();
                if (last) {
                    return;
                }
                last = !live.getAsBoolean(); // one more read after the container stopped
                Thread.sleep(FOLLOW_POLL);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "closing the kubelet port: " + e.getMessage());
        }
        connections.shutdownNow();
    }
}
