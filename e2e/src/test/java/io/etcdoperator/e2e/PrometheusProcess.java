package io.etcdoperator.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdoperator.localkube.LoopbackPorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code /usr/bin/prometheus} as a child process listening on loopback, with its configuration, rule files,
 * storage and log in a directory of its own; its HTTP API answers queries, targets, rules and alerts.
 */
final class PrometheusProcess implements AutoCloseable {

    static final Path BINARY = Path.of("/usr/bin/prometheus");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final URI base;
    private final Path log;

    private PrometheusProcess(Process process, URI base, Path log) {
        this.process = process;
        this.base = base;
        this.log = log;
    }

    /** Writes {@code prometheus.yml} and {@code files} (rule files) into {@code dir}, starts it and waits for ready. */
    static PrometheusProcess start(Path dir, String config, Map<String, String> files) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("prometheus.yml"), config);
        for (var file : files.entrySet()) {
            Files.writeString(dir.resolve(file.getKey()), file.getValue());
        }
        int port = LoopbackPorts.reserve(1)[0];
        List<String> command = new ArrayList<>(List.of(
                BINARY.toString(),
                "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port));
        Path log = dir.resolve("prometheus.log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        var prometheus = new PrometheusProcess(process, URI.create("http://127.0.0.1:" + port), log);
        Await.until("prometheus /-/ready (log " + log + ")", Duration.ofSeconds(60), () -> {
            if (!process.isAlive()) {
                throw new AssertionError("prometheus exited with " + process.exitValue() + "; see " + log);
            }
            return prometheus.status("/-/ready") == 200;
        });
        return prometheus;
    }

    /** The port a listener just had; Prometheus binds it a moment later (nothing else on loopback races for it). */
    /** The {@code result} of an instant query: one element per series, each with its {@code metric} labels. */
    JsonNode query(String promql) {
        return api("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))
                .path("result");
    }

    JsonNode activeTargets() {
        return api("/api/v1/targets?state=active").path("activeTargets");
    }

    JsonNode ruleGroups() {
        return api("/api/v1/rules").path("groups");
    }

    JsonNode alerts() {
        return api("/api/v1/alerts").path("alerts");
    }

    Path log() {
        return log;
    }

    /** The {@code data} of a successful API answer; anything else throws. */
    private JsonNode api(String pathAndQuery) {
        HttpResponse<String> response = get(pathAndQuery);
        try {
            JsonNode body = JSON.readTree(response.body());
            if (response.statusCode() != 200
                    || !"success".equals(body.path("status").asText())) {
                throw new IllegalStateException(pathAndQuery + ": " + response.statusCode() + " " + response.body());
            }
            return body.path("data");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private int status(String path) {
        try {
            return get(path).statusCode();
        } catch (UncheckedIOException e) {
            return -1; // not listening yet
        }
    }

    private HttpResponse<String> get(String pathAndQuery) {
        return OperatorHttp.get(base.resolve(pathAndQuery));
    }

    /** SIGTERM to this process (by its own handle), then SIGKILL if it has not ended within 20 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
