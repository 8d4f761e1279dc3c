package io.etcdoperator.e2e;

import io.etcdoperator.localkube.LoopbackPorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A one-member etcd on loopback over a given data directory, from the release binaries hack/etcd-binaries.sh
 * provides (3.4.23 with etcdctl, 3.5.16 with etcdutl), so a test can start a member on the directory a restore
 * produced. Stopped by its own PID.
 */
final class LoopbackEtcd implements AutoCloseable {

    private static final Duration START = Duration.ofSeconds(30);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    /** A release's binary directory: the system property failsafe sets from ETCD34_BIN / ETCD35_BIN. */
    enum Release {
        V3_4_23("etcd34.bin", "ETCD34_BIN", "etcdctl"),
        V3_5_16("etcd35.bin", "ETCD35_BIN", "etcdutl");

        private final String property;
        private final String variable;
        private final String restoreTool;

        Release(String property, String variable, String restoreTool) {
            this.property = property;
            this.variable = variable;
            this.restoreTool = restoreTool;
        }

        Path etcd() {
            return binary("etcd");
        }

        /** etcdctl up to 3.4, etcdutl from 3.5: what the agent's {@code --tool} names. */
        Path restoreTool() {
            return binary(restoreTool);
        }

        private Path binary(String name) {
            return Optional.ofNullable(System.getProperty(property))
                    .filter(dir -> !dir.isBlank() && !dir.startsWith("${"))
                    .or(() -> Optional.ofNullable(System.getenv(variable)))
                    .map(dir -> Path.of(dir, name))
                    .filter(Files::isExecutable)
                    .orElseThrow(() -> new IllegalStateException(
                            name + " not found in " + variable + "; eval \"$(hack/etcd-binaries.sh --env)\" first"));
        }
    }

    /** A member's name and loopback URLs, reserved before it starts so that a restore can name them. */
    record Member(String name, URI peerUrl, URI clientUrl) {
        static Member reserve(String name) {
            int[] ports = LoopbackPorts.reserve(2);
            return new Member(
                    name, URI.create("http://127.0.0.1:" + ports[0]), URI.create("http://127.0.0.1:" + ports[1]));
        }

        String initialCluster() {
            return name + "=" + peerUrl;
        }
    }

    private final Member member;
    private final Process process;
    private final Path log;

    private LoopbackEtcd(Member member, Process process, Path log) {
        this.member = member;
        this.process = process;
        this.log = log;
    }

    /** Starts a new one-member cluster, or the member a restore left in {@code dataDir}; returns once healthy. */
    static LoopbackEtcd start(Release release, Member member, Path dataDir, String token) {
        Path log = dataDir.resolveSibling(dataDir.getFileName() + ".log");
        List<String> command = List.of(
                release.etcd().toString(),
                "--name=" + member.name(),
                "--data-dir=" + dataDir,
                "--listen-client-urls=" + member.clientUrl(),
                "--advertise-client-urls=" + member.clientUrl(),
                "--listen-peer-urls=" + member.peerUrl(),
                "--initial-advertise-peer-urls=" + member.peerUrl(),
                "--initial-cluster=" + member.initialCluster(),
                "--initial-cluster-state=new",
                "--initial-cluster-token=" + token,
                "--logger=zap");
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            LoopbackEtcd etcd = new LoopbackEtcd(member, process, log);
            etcd.awaitHealthy();
            return etcd;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    URI clientUrl() {
        return member.clientUrl();
    }

    private void awaitHealthy() {
        try {
            Await.until(member.name() + " healthy (log " + log + ")", START, () -> !process.isAlive() || healthy());
        } catch (AssertionError e) {
            close();
            throw e;
        }
        if (!process.isAlive()) {
            throw new IllegalStateException(member.name() + " exited with " + process.exitValue() + "; see " + log);
        }
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
            throw new IllegalStateException(e);
        }
    }

    /** SIGTERM to our PID, SIGKILL if it is still there after 10 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
