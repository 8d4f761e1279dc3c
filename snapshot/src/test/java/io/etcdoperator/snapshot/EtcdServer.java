package io.etcdoperator.snapshot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One etcd process on loopback over a given data directory, so a test can start a member on a directory a restore
 * produced. Stopped by its own PID.
 */
final class EtcdServer implements AutoCloseable {

    private static final Set<Integer> HANDED_OUT = new HashSet<>();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    /** A member's name and URLs, reserved before it starts so a restore can name them. */
    record Member(String name, URI peerUrl, URI clientUrl) {
        static Member reserve(String name) {
            return new Member(
                    name, URI.create("http://127.0.0.1:" + freePort()), URI.create("http://127.0.0.1:" + freePort()));
        }

        String initialCluster() {
            return name + "=" + peerUrl;
        }
    }

    private final Member member;
    private final Process process;
    private final Path log;

    private EtcdServer(Member member, Process process, Path log) {
        this.member = member;
        this.process = process;
        this.log = log;
    }

    /** Starts a new one-member cluster, or (when the data dir holds a member) the member found there. */
    static EtcdServer start(EtcdRelease release, Member member, Path dataDir, String token, String... extraArgs) {
        return start(release, member, member.initialCluster(), dataDir, token, extraArgs);
    }

    /** Starts one member of a new cluster of several; returns once the cluster has a leader, so start them together. */
    static EtcdServer start(
            EtcdRelease release,
            Member member,
            String initialCluster,
            Path dataDir,
            String token,
            String... extraArgs) {
        Path log = dataDir.resolveSibling(dataDir.getFileName() + ".log");
        List<String> command = new ArrayList<>(List.of(
                release.etcd().toString(),
                "--name",
                member.name(),
                "--data-dir",
                dataDir.toString(),
                "--listen-client-urls",
                member.clientUrl().toString(),
                "--advertise-client-urls",
                member.clientUrl().toString(),
                "--listen-peer-urls",
                member.peerUrl().toString(),
                "--initial-advertise-peer-urls",
                member.peerUrl().toString(),
                "--initial-cluster",
                initialCluster,
                "--initial-cluster-state",
                "new",
                "--initial-cluster-token",
                token,
                "--logger",
                "zap"));
        command.addAll(List.of(extraArgs));
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            return new EtcdServer(member, process, log).awaitHealthy(Duration.ofSeconds(30));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    URI clientUrl() {
        return member.clientUrl();
    }

    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private EtcdServer awaitHealthy(Duration within) {
        Instant deadline = Instant.now().plus(within);
        while (!healthy()) {
            if (!process.isAlive() || Instant.now().isAfter(deadline)) {
                close();
                throw new AssertionError(member.name() + " did not become healthy:\n" + logTail());
            }
            try {
                Thread.sleep(50); // polling the health endpoint: there is no event to wait on
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        return this;
    }

    private boolean healthy() {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(member.clientUrl().resolve("/health"))
                            .timeout(Duration.ofSeconds(1))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 && response.body().contains("\"health\":\"true\"");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    static int freePort() {
        synchronized (HANDED_OUT) {
            while (true) {
                try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                    if (HANDED_OUT.add(socket.getLocalPort())) {
                        return socket.getLocalPort();
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }
}
