package io.etcdoperator.etcd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Real etcd members on loopback for integration tests: free ports, a temporary data dir per member, one cluster
 * token per instance. {@link #close()} stops every process it started and deletes the data.
 */
final class LocalEtcd implements AutoCloseable {

    static final Duration READY_WITHIN = Duration.ofSeconds(30);
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    /** Where a member listens; reserved before the member is added so its peer URL can be registered first. */
    record Peer(String name, URI peerUrl, URI clientUrl) {}

    /** Server-side TLS for client traffic, with client certificates required. */
    record ServerTls(Path cert, Path key, Path trustedCa) {}

    private final EtcdVersion version;
    private final Optional<ServerTls> tls;
    private final Path root;
    private final String clusterToken = "it-" + UUID.randomUUID();
    private final List<EtcdProcess> processes = new ArrayList<>();
    private final List<String> extraFlags = new ArrayList<>();
    /** How each member was first started, by name: a restart reuses its peer and initial cluster. */
    private final Map<String, Started> started = new HashMap<>();

    private record Started(Peer peer, String initialCluster, int starts) {}

    LocalEtcd(EtcdVersion version) {
        this(version, Optional.empty());
    }

    LocalEtcd(EtcdVersion version, Optional<ServerTls> tls) {
        this.version = version;
        this.tls = tls;
        version.etcd(); // fail before creating anything when the binary is missing
        try {
            this.root = Files.createTempDirectory("etcd-it-" + version.release() + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Adds flags to every member started from now on (e.g. a small {@code --quota-backend-bytes}). */
    LocalEtcd withFlags(String... flags) {
        extraFlags.addAll(List.of(flags));
        return this;
    }

    EtcdVersion version() {
        return version;
    }

    Peer reserve(String name) {
        String clientScheme = tls.isPresent() ? "https" : "http";
        return new Peer(
                name,
                URI.create("http://127.0.0.1:" + freePort()),
                URI.create(clientScheme + "://127.0.0.1:" + freePort()));
    }

    /** Bootstraps a new one-member cluster. */
    EtcdProcess startFirst(String name) {
        Peer peer = reserve(name);
        return start(peer, name + "=" + peer.peerUrl(), "new");
    }

    /**
     * Bootstraps a cluster of all these members at once (a static initial cluster, state new): every process is
     * started before any is awaited, since none is ready before a quorum elected a leader.
     */
    List<EtcdProcess> startCluster(String... names) {
        List<Peer> peers = Stream.of(names).map(this::reserve).toList();
        String initialCluster =
                peers.stream().map(p -> p.name() + "=" + p.peerUrl()).collect(Collectors.joining(","));
        List<EtcdProcess> members = peers.stream()
                .map(p -> launch(p, initialCluster, "new", version))
                .toList();
        members.forEach(m -> m.awaitReady(READY_WITHIN));
        return members;
    }

    /**
     * Stops the member if it still runs (SIGTERM, then waits) and starts it again with this release's binary over the
     * same data directory, with the same flags except {@code --initial-cluster-state=existing}; returns once it serves.
     */
    EtcdProcess restart(EtcdProcess member, EtcdVersion binary) {
        Started first = started.get(member.name());
        if (first == null) {
            throw new IllegalArgumentException(member + " was not started by this LocalEtcd");
        }
        member.stop();
        return launch(first.peer(), first.initialCluster(), "existing", binary).awaitReady(READY_WITHIN);
    }

    /**
     * Starts a member that was already added (as a learner) to the cluster: initial-cluster comes from the membership
     * etcd returned, with this member's still-empty name filled in.
     */
    EtcdProcess startJoining(Peer peer, Membership membership) {
        String initialCluster = membership.members().stream()
                .flatMap(m -> m.peerUrls().stream()
                        .map(url -> (m.peerUrls().contains(peer.peerUrl()) ? peer.name() : m.name()) + "=" + url))
                .collect(Collectors.joining(","));
        return start(peer, initialCluster, "existing");
    }

    @Override
    public void close() {
        processes.forEach(EtcdProcess::stop);
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temp dir is harmless
        }
    }

    private EtcdProcess start(Peer peer, String initialCluster, String state) {
        return launch(peer, initialCluster, state, version).awaitReady(READY_WITHIN);
    }

    /** Starts the process without waiting for it; each start of a member logs to a file of its own. */
    private EtcdProcess launch(Peer peer, String initialCluster, String state, EtcdVersion binary) {
        Started previous = started.get(peer.name());
        int starts = previous == null ? 1 : previous.starts() + 1;
        started.put(peer.name(), new Started(peer, initialCluster, starts));
        Path dataDir = root.resolve(peer.name());
        Path log = root.resolve(peer.name() + (starts == 1 ? "" : "." + starts) + ".log");
        List<String> command = new ArrayList<>(List.of(
                binary.etcd().toString(),
                "--name",
                peer.name(),
                "--data-dir",
                dataDir.toString(),
                "--listen-client-urls",
                peer.clientUrl().toString(),
                "--advertise-client-urls",
                peer.clientUrl().toString(),
                "--listen-peer-urls",
                peer.peerUrl().toString(),
                "--initial-advertise-peer-urls",
                peer.peerUrl().toString(),
                "--initial-cluster",
                initialCluster,
                "--initial-cluster-state",
                state,
                "--initial-cluster-token",
                clusterToken,
                "--logger",
                "zap"));
        command.addAll(extraFlags);
        tls.ifPresent(t -> command.addAll(List.of(
                "--cert-file",
                t.cert().toString(),
                "--key-file",
                t.key().toString(),
                "--trusted-ca-file",
                t.trustedCa().toString(),
                "--client-cert-auth")));
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            EtcdProcess etcd = new EtcdProcess(peer, process, log, tls.isPresent());
            processes.add(etcd);
            return etcd;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
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
