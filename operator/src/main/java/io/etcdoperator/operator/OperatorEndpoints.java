package io.etcdoperator.operator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** /metrics on one address, /healthz and /readyz on another, served by the JDK's HTTP server. */
final class OperatorEndpoints implements AutoCloseable {

    private final HttpServer metrics;
    private final HttpServer probes;

    OperatorEndpoints(
            InetSocketAddress metricsAddress,
            InetSocketAddress probeAddress,
            PrometheusMeterRegistry registry,
            Supplier<Liveness.Answer> live,
            BooleanSupplier ready)
            throws IOException {
        metrics = HttpServer.create(metricsAddress, 0);
        metrics.createContext("/metrics", x -> respond(x, 200, registry.scrape(), "text/plain; version=0.0.4"));
        probes = HttpServer.create(probeAddress, 0);
        probes.createContext("/healthz", x -> {
            Liveness.Answer answer = live.get();
            respond(x, answer.code(), answer.body(), "text/plain");
        });
        probes.createContext(
                "/readyz",
                x -> respond(
                        x, ready.getAsBoolean() ? 200 : 503, ready.getAsBoolean() ? "ok" : "not ready", "text/plain"));
        metrics.start();
        probes.start();
    }

    int metricsPort() {
        return metrics.getAddress().getPort();
    }

    int probePort() {
        return probes.getAddress().getPort();
    }

    private static void respond(HttpExchange exchange, int code, String body, String contentType) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        metrics.stop(0);
        probes.stop(0);
    }
}
