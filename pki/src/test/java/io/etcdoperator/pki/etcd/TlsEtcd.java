package io.etcdoperator.pki.etcd;

import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.etcd.EtcdVersion;
import io.etcdoperator.etcd.JetcdEtcdAdmin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Real etcd members on loopback with TLS files from a directory per member, statically bootstrapped, each one
 * restartable with new files and the same data. Processes are stopped by their own handle; data is deleted on close.
 */
final class TlsEtcd implements AutoCloseable {

    static final Duration READY_WITHIN = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    /** Which planes use TLS; {@code clientCertAuth} also requires client certificates (mTLS) on 2379. */
    record Planes(boolean clientTls, boolean clientCertAuth, boolean peerTls) {
        static final Planes FULL = new Planes(true, true, true);
    }

    final class Node {
        private final String name;
        private final URI peerUrl;
        private final URI clientUrl;
        private final Path tlsDir;
        private Process process;
        private Path log;
        private int starts;

        private Node(String name) {
            this.name = name;
            this.peerUrl = URI.create((planes.peerTls() ? "https" : "http") + "://127.0.0.1:" + freePort());
            this.clientUrl = URI.create((planes.clientTls() ? "https" : "http") + "://127.0.0.1:" + freePort());
            this.tlsDir = root.resolve(name + "-tls");
        }

        String name() {
            return name;
        }

        URI clientUrl() {
            return clientUrl;
        }

        boolean alive() {
            return process != null && process.isAlive();
        }

        @Override
        public String toString() {
            return name + (process == null ? "" : "[pid " + process.pid() + "]");
        }
    }

    private final EtcdVersion version;
    private final Planes planes;
    private final Path root;
    private final String token = "pki-it-" + UUID.randomUUID();
    private final List<Node> nodes = new ArrayList<>();

    TlsEtcd(EtcdVersion version, Planes planes, String... names) {
        this.version = version;
        this.planes = planes;
        version.etcd();
        try {
            this.root = Files.createTempDirectory("pki-it-" + version.release() + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String name : names) {
            nodes.add(new Node(name));
        }
    }

    List<Node> nodes() {
        return List.copyOf(nodes);
    }

    Node node(String name) {
        return nodes.stream().filter(n -> n.name.equals(name)).findFirst().orElseThrow();
    }

    List<URI> clientUrls() {
        return nodes.stream().map(Node::clientUrl).toList();
    }

    /** Starts every member with the same material and waits until each one says it serves clients. */
    void startAll(NodeTls material) {
        nodes.forEach(n -> material.writeTo(n.tlsDir));
        nodes.forEach(this::launch);
        nodes.forEach(this::awaitServing);
    }

    /** Stops one member, gives it new files, starts it on its existing data, and waits until it serves clients. */
    void restart(Node node, NodeTls material) {
        stop(node);
        material.writeTo(node.tlsDir);
        launch(node);
        awaitServing(node);
    }

    /** Polls the member's status through the etcd port until it answers and knows a leader. */
    EndpointStatus awaitHealthy(Node node, ClientMaterial client) {
        Instant deadline = Instant.now().plus(READY_WITHIN);
        EtcdException last = null;
        while (Instant.now().isBefore(deadline)) {
            requireAlive(node);
            try (EtcdAdmin admin = admin(List.of(node.clientUrl), client, Duration.ofSeconds(2))) {
                EndpointStatus status = admin.status(node.clientUrl);
                if (status.leader().value() != 0) {
                    return status;
                }
            } catch (EtcdException e) {
                last = e;
            }
            pause();
        }
        throw new AssertionError(
                node + " not healthy within " + READY_WITHIN + " (last: " + last + ")\n" + logTail(node));
    }

    EtcdAdmin admin(List<URI> endpoints, ClientMaterial client, Duration timeout) {
        Optional<EtcdConnection.ClientTls> tls = planes.clientTls() ? Optional.of(client.forPort()) : Optional.empty();
        return JetcdEtcdAdmin.FACTORY.open(new EtcdConnection(endpoints, tls, Optional.empty(), timeout));
    }

    String logTail(Node node) {
        try {
            List<String> lines = Files.readAllLines(node.log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "(no log)";
        }
    }

    @Override
    public void close() {
        nodes.forEach(this::stop);
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temp dir is harmless
        }
    }

    void stop(Node node) {
        if (node.process == null || !node.process.isAlive()) {
            return;
        }
        node.process.destroy();
        try {
            if (!node.process.waitFor(10, TimeUnit.SECONDS)) {
                node.process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void launch(Node node) {
        node.starts++;
        node.log = root.resolve(node.name + "-" + node.starts + ".log");
        String initialCluster =
                nodes.stream().map(n -> n.name + "=" + n.peerUrl).collect(Collectors.joining(","));
        List<String> command = new ArrayList<>(List.of(
                version.etcd().toString(),
                "--name",
                node.name,
                "--data-dir",
                root.resolve(node.name + "-data").toString(),
                "--listen-client-urls",
                node.clientUrl.toString(),
                "--advertise-client-urls",
                node.clientUrl.toString(),
                "--listen-peer-urls",
                node.peerUrl.toString(),
                "--initial-advertise-peer-urls",
                node.peerUrl.toString(),
                "--initial-cluster",
                initialCluster,
                "--initial-cluster-state",
                "new",
                "--initial-cluster-token",
                token,
                "--logger",
                "zap"));
        Path tls = node.tlsDir;
        if (planes.clientTls()) {
            command.addAll(List.of(
                    "--cert-file",
                    tls.resolve(NodeTls.SERVER_CERT).toString(),
                    "--key-file",
                    tls.resolve(NodeTls.SERVER_KEY).toString()));
            if (planes.clientCertAuth()) {
                command.addAll(List.of(
                        "--client-cert-auth",
                        "--trusted-ca-file",
                        tls.resolve(NodeTls.CA).toString()));
            }
        }
        if (planes.peerTls()) {
            command.addAll(List.of(
                    "--peer-cert-file",
                    tls.resolve(NodeTls.PEER_CERT).toString(),
                    "--peer-key-file",
                    tls.resolve(NodeTls.PEER_KEY).toString(),
                    "--peer-trusted-ca-file",
                    tls.resolve(NodeTls.CA).toString(),
                    "--peer-client-cert-auth"));
        }
        try {
            node.process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(node.log.toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start etcd " + node.name, e);
        }
    }

    /** etcd 3.4 and 3.5 log "serving client traffic (in)securely" once the client listener is up. */
    private void awaitServing(Node node) {
        Instant deadline = Instant.now().plus(READY_WITHIN);
        while (!logMentions(node, "serving client traffic")) {
            requireAlive(node);
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(node + " not serving within " + READY_WITHIN + ":\n" + logTail(node));
            }
            pause();
        }
    }

    private void requireAlive(Node node) {
        if (!node.alive()) {
            throw new AssertionError(node + " exited:\n" + logTail(node));
        }
    }

    private static boolean logMentions(Node node, String text) {
        try {
            return Files.readString(node.log, StandardCharsets.UTF_8).contains(text);
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

    private static int freePort() {
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
