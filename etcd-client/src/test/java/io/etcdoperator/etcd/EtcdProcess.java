package io.etcdoperator.etcd;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One etcd server process started by {@link LocalEtcd}; stopped by its PID (destroy, then wait). */
final class EtcdProcess {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    private static final Duration POLL = Duration.ofMillis(50);

    private final LocalEtcd.Peer peer;
    private final Process process;
    private final Path log;
    private final boolean tls;

    EtcdProcess(LocalEtcd.Peer peer, Process process, Path log, boolean tls) {
        this.peer = peer;
        this.process = process;
        this.log = log;
        this.tls = tls;
    }

    String name() {
        return peer.name();
    }

    URI clientUrl() {
        return peer.clientUrl();
    }

    URI peerUrl() {
        return peer.peerUrl();
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /**
     * Polls until the member serves clients: /health over plain HTTP (true once it knows a leader, learners
     * included), or etcd's "serving client traffic securely" log line when client TLS is on.
     */
    EtcdProcess awaitReady(Duration within) {
        Instant deadline = Instant.now().plus(within);
        while (!ready()) {
            if (!process.isAlive()) {
                throw new AssertionError(
                        name() + " exited with " + process.exitValue() + " before it was ready:\n" + logTail());
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(name() + " not ready within " + within + ":\n" + logTail());
            }
            pause();
        }
        return this;
    }

    /** Waits for the process to end on its own (an etcd member removed from its cluster shuts down). */
    boolean awaitExit(Duration within) {
        try {
            return process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    void stop() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!awaitExit(Duration.ofSeconds(10))) {
            process.destroyForcibly();
            awaitExit(Duration.ofSeconds(5));
        }
    }

    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 25), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public String toString() {
        return name() + "[pid " + process.pid() + ", " + clientUrl() + "]";
    }

    private boolean ready() {
        return tls ? logMentions("serving client traffic securely") : healthy();
    }

    private boolean healthy() {
        HttpRequest request = HttpRequest.newBuilder(clientUrl().resolve("/health?serializable=true"))
                .timeout(Duration.ofSeconds(1))
                .build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 && response.body().contains("\"health\":\"true\"");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + name(), e);
        }
    }

    private boolean logMentions(String text) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
