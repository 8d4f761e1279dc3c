package io.etcdoperator.bench;

import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.etcd.JetcdEtcdAdmin;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.localkube.LoopbackPorts;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * etcd's own floor for a bootstrap: what an expert does by hand with the same binary on loopback, on tmpfs, with no
 * Kubernetes in between. Seed alone, then per joiner: MemberAddAsLearner (retried until etcd's health gate lets it),
 * start the learner, MemberPromote (retried until it has caught up). Ends when the last promotion is accepted.
 */
final class EtcdFloor {

    private static final Duration POLL = Duration.ofMillis(20);
    private static final Duration LIMIT = Duration.ofMinutes(2);

    private final Path binary;
    private final Path scratch;

    EtcdFloor(Path binary, Path scratch) {
        this.binary = binary;
        this.scratch = scratch;
    }

    /** The etcd 3.5.16 binary the e2e environment provisions (ETCD35_BIN). */
    static EtcdFloor fromEnvironment() {
        Path etcd = Optional.ofNullable(System.getProperty("etcd35.bin", System.getenv("ETCD35_BIN")))
                .map(dir -> Path.of(dir, "etcd"))
                .filter(Files::isExecutable)
                .orElseThrow(() -> new IllegalStateException("ETCD35_BIN/etcd not found"));
        Path shm = Path.of("/dev/shm");
        return new EtcdFloor(etcd, Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** Bootstraps {@code size} voters and returns the seconds from the seed's start to the last promotion. */
    double bootstrapSeconds(int size) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory(scratch, "etcd-floor-");
        List<Process> processes = new ArrayList<>();
        int[] ports = LoopbackPorts.reserve(2 * size);
        try {
            long start = System.nanoTime();
            String initial = peer("m0", ports[1]);
            processes.add(start(dir, 0, ports, initial, "new"));
            try (EtcdAdmin etcd = JetcdEtcdAdmin.open(new EtcdConnection(
                    List.of(client(ports[0])), Optional.empty(), Optional.empty(), Duration.ofSeconds(5)))) {
                retry(() -> etcd.status(client(ports[0])));
                for (int i = 1; i < size; i++) {
                    URI peerUrl = URI.create("http://127.0.0.1:" + ports[2 * i + 1]);
                    var after = retry(() -> etcd.addLearner(peerUrl));
                    MemberId id = after.byPeerUrl(peerUrl).orElseThrow().id();
                    initial = initial + "," + peer("m" + i, ports[2 * i + 1]);
                    processes.add(start(dir, i, ports, initial, "existing"));
                    retry(() -> {
                        etcd.promote(id);
                        return id;
                    });
                }
            }
            return (System.nanoTime() - start) / 1e9;
        } finally {
            for (Process p : processes) {
                p.destroyForcibly().waitFor();
            }
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private Process start(Path dir, int i, int[] ports, String initialCluster, String state) throws IOException {
        String name = "m" + i;
        Path log = dir.resolve(name + ".log");
        return new ProcessBuilder(
                        binary.toString(),
                        "--name",
                        name,
                        "--data-dir",
                        dir.resolve(name).toString(),
                        "--listen-client-urls",
                        client(ports[2 * i]).toString(),
                        "--advertise-client-urls",
                        client(ports[2 * i]).toString(),
                        "--listen-peer-urls",
                        "http://127.0.0.1:" + ports[2 * i + 1],
                        "--initial-advertise-peer-urls",
                        "http://127.0.0.1:" + ports[2 * i + 1],
                        "--initial-cluster",
                        initialCluster,
                        "--initial-cluster-state",
                        state,
                        "--initial-cluster-token",
                        "floor")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    /** Tries until etcd accepts: its refusals (health gate, learner not caught up, not yet serving) are the floor. */
    private static <T> T retry(Supplier<T> call) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (true) {
            try {
                return call.get();
            } catch (EtcdException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(POLL);
            }
        }
    }

    private static URI client(int port) {
        return URI.create("http://127.0.0.1:" + port);
    }

    private static String peer(String name, int port) {
        return name + "=http://127.0.0.1:" + port;
    }
}
