package io.etcdoperator.localkube.node;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

/**
 * The part of the kubelet API that {@code kubectl logs} reaches through the API server:
 * {@code GET /containerLogs/{namespace}/{pod}/{container}} with {@code follow}, {@code tailLines},
 * {@code limitBytes} and {@code previous}, over HTTPS on 127.0.0.1 (the API server does not verify the kubelet's
 * certificate unless told to). {@code timestamps} is ignored: logs are stored without them.
 */
final class KubeletServer implements AutoCloseable {

    private static final Duration FOLLOW_POLL = Duration.ofMillis(200);

    private final SimulatedNode node;
    private final HttpsServer server;

    KubeletServer(SimulatedNode node, SSLContext tls) {
        this.node = node;
        try {
            server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the kubelet port", e);
        }
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/containerLogs/", this::containerLogs);
        server.createContext("/healthz", exchange -> reply(exchange, 200, "ok"));
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    private void containerLogs(HttpExchange exchange) throws IOException {
        try (exchange) {
            String[] parts = exchange.getRequestURI().getPath().split("/");
            if (parts.length != 5 || !"GET".equals(exchange.getRequestMethod())) {
                reply(exchange, 404, "expected GET /containerLogs/{namespace}/{pod}/{container}");
                return;
            }
            Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
            String namespace = parts[2];
            String podName = parts[3];
            String container = parts[4];
            boolean previous = Boolean.parseBoolean(query.get("previous"));
            Optional<PodWorker> worker = node.worker(namespace, podName);
            if (worker.isEmpty()) {
                reply(exchange, 404, "pod " + namespace + "/" + podName + " not found on node " + node.name());
                return;
            }
            if (!worker.get().containerNames().contains(container)) {
                reply(exchange, 400, "container " + container + " is not valid for pod " + podName);
                return;
            }
            Optional<Path> log = worker.get().log(container, previous);
            if (log.isEmpty()) {
                reply(exchange, 400, previous
                        ? "previous terminated container \"" + container + "\" in pod \"" + podName + "\" not found"
                        : "container \"" + container + "\" in pod \"" + podName + "\" is waiting to start");
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(200, 0);
            OutputStream body = exchange.getResponseBody();
            long position = writeExisting(log.get(), query, body);
            if (!previous && Boolean.parseBoolean(query.get("follow"))) {
                follow(log.get(), position, body, () -> worker.get().running(container) && node.running());
            }
        }
    }

    private static long writeExisting(Path log, Map<String, String> query, OutputStream body) throws IOException {
        byte[] content = Files.readAllBytes(log);
        String tail = query.get("tailLines");
        int from = tail == null ? 0 : startOfLastLines(content, Integer.parseInt(tail));
        int length = content.length - from;
        String limit = query.get("limitBytes");
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

    private static void follow(Path log, long position, OutputStream body, java.util.function.BooleanSupplier live)
            throws IOException {
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
                last = !live.getAsBoolean();   // one more read after the container stopped
                Thread.sleep(FOLLOW_POLL);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new HashMap<>();
        if (raw == null) {
            return query;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "true" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            query.put(key, value);
        }
        return query;
    }

    private static void reply(HttpExchange exchange, int status, String message) throws IOException {
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }

}
