package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.localkube.LoopbackPorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * etcd-guard (operator/src/main/c), the member Pods' pre-start check, in front of a real etcd 3.5.16 on loopback:
 * it starts etcd, learns that this member has a WAL, and refuses a later start on an emptied or foreign directory.
 */
class EtcdGuardIT {

    private static final Duration START = Duration.ofSeconds(30);

    private Path dir;
    private final List<Process> started = new ArrayList<>();

    @BeforeEach
    void scratch() throws IOException {
        dir = Files.createTempDirectory("etcd-guard-");
        Files.createDirectories(dir.resolve("state"));
    }

    @AfterEach
    void stop() throws Exception {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void refusesToRestartAMemberWhoseWalIsGone() throws Exception {
        Path data = dir.resolve("data");
        Process first = guard(List.of(), "m1", data);
        Await.until(
                "the guard to record the member's WAL",
                START,
                () -> Files.exists(dir.resolve("state/m1.started")) && Files.exists(identity(data)));
        assertThat(Files.readString(identity(data))).isEqualTo("name=m1\ntoken=token-a\n");
        ProcessHandle etcd = first.descendants().findFirst().orElseThrow();

        first.destroy(); // SIGTERM reaches etcd through the guard
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(etcd.isAlive()).isFalse();

        wipe(data);
        Process second = guard(List.of(), "m1", data);
        assertThat(second.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(second.exitValue()).isEqualTo(3);
        assertThat(terminationMessage())
                .startsWith("etcd-guard: member m1 ran in this Pod with a WAL")
                .contains("its data is lost");
        assertThat(data).doesNotExist(); // etcd never ran: it would have made the directory
    }

    @Test
    void aVoterInANewPodMustBringItsData() throws Exception {
        Process guard = guard(List.of("--expect-data"), "m1", dir.resolve("data"));
        assertThat(guard.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(guard.exitValue()).isEqualTo(3);
        assertThat(terminationMessage()).contains("member m1 has run before").contains("its data is lost");
    }

    @Test
    void refusesAnotherMembersDirectoryAndAdoptsAnUnnamedOne() throws Exception {
        Path data = dir.resolve("data");
        Process first = guard(List.of(), "m1", data);
        Await.until("the member's identity", START, () -> Files.exists(identity(data)));
        first.destroy();
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();

        Process other = guard(List.of(), "m2", data);
        assertThat(other.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(other.exitValue()).isEqualTo(3);
        assertThat(terminationMessage()).contains("belongs to another member or cluster (name=m1 token=token-a )");

        Files.delete(identity(data)); // a directory from before the guard (an adopted member) gets named at its start
        Files.delete(dir.resolve("termination-log"));
        Process adopted = guard(List.of("--expect-data"), "m1", data);
        Await.until("the adopted directory's identity", START, () -> Files.exists(identity(data)));
        assertThat(adopted.isAlive()).isTrue();
        assertThat(dir.resolve("termination-log")).doesNotExist();
    }

    @Test
    void restartsEtcdOnceWithForceNewClusterWhenTheAnnotationAsks() throws Exception {
        Path data = dir.resolve("data");
        Path annotations = dir.resolve("annotations"); // what the downward API shows of the Pod's annotations
        Files.writeString(annotations, "kubectl.kubernetes.io/restartedAt=\"x\"\n");
        List<String> options = List.of("--recovery-file=" + annotations, "--force-flag=--snapshot-count=1");
        Process guard = guard(options, "m1", data);
        Await.until("the guard to record the member's WAL", START, () -> Files.exists(dir.resolve("state/m1.started")));
        ProcessHandle first = guard.descendants().findFirst().orElseThrow();
        assertThat(arguments(first)).doesNotContain("--force-new-cluster", "--snapshot-count=1");

        Files.writeString(
                annotations,
                "etcd-operator.cozystack.io/force-new-cluster=\"t1\"\n" + "kubectl.kubernetes.io/restartedAt=\"x\"\n");
        Await.until(
                "etcd restarted with --force-new-cluster",
                START,
                () -> guard.descendants()
                        .anyMatch(p -> p.pid() != first.pid() && arguments(p).contains("--force-new-cluster")));
        assertThat(first.isAlive()).isFalse();
        assertThat(guard.isAlive()).isTrue();
        assertThat(guard.descendants().map(EtcdGuardIT::arguments).filter(a -> a.contains("--force-new-cluster")))
                .singleElement()
                .satisfies(a -> assertThat(a).endsWith("--force-new-cluster", "--snapshot-count=1"));
        assertThat(Files.readString(dir.resolve("state/m1.force-new-cluster"))).isEqualTo("t1");
        ProcessHandle forced = guard.descendants()
                .filter(p -> arguments(p).contains("--force-new-cluster"))
                .findFirst()
                .orElseThrow();

        Files.writeString(annotations, "kubectl.kubernetes.io/restartedAt=\"x\"\n"); // the operator withdraws it
        Await.until(
                "etcd restarted without the force flags",
                START,
                () -> !forced.isAlive()
                        && guard.descendants()
                                .anyMatch(p ->
                                        !arguments(p).isEmpty() && !arguments(p).contains("--snapshot-count=1")));
        assertThat(guard.isAlive()).isTrue();

        guard.destroy(); // a container restart while the annotation is still there must not force the cluster again
        assertThat(guard.waitFor(30, TimeUnit.SECONDS)).isTrue();
        Process again = guard(options, "m1", data);
        Await.until(
                "etcd started again",
                START,
                () -> again.descendants().findFirst().isPresent());
        assertThat(arguments(again.descendants().findFirst().orElseThrow()))
                .doesNotContain("--force-new-cluster", "--snapshot-count=1");
    }

    /** Whoever wrote the annotation, a member whose etcd has a leader is never made a one-member cluster. */
    @Test
    void aMemberWithALeaderRefusesTheRequest() throws Exception {
        Path data = dir.resolve("data");
        Path annotations = dir.resolve("annotations");
        Files.writeString(annotations, "");
        int metrics = LoopbackPorts.reserve(1)[0];
        Process guard = guard(
                List.of("--recovery-file=" + annotations),
                "m1",
                data,
                List.of("--listen-metrics-urls=http://127.0.0.1:" + metrics),
                "");
        Await.until("the guard to record the member's WAL", START, () -> Files.exists(dir.resolve("state/m1.started")));
        ProcessHandle first = guard.descendants().findFirst().orElseThrow();
        Files.writeString(annotations, "etcd-operator.cozystack.io/force-new-cluster=\"forged\"\n");
        Await.until("the request refused", START, () -> log("m1").contains("refusing"));
        assertThat(Files.readString(dir.resolve("m1.log"))).contains("etcd has a leader");
        assertThat(first.isAlive()).as("etcd kept running").isTrue();
        assertThat(guard.descendants().noneMatch(p -> arguments(p).contains("--force-new-cluster")))
                .isTrue();
        assertThat(Files.readString(dir.resolve("state/m1.force-new-cluster"))).isEqualTo("forged");
    }

    /** A member of a cluster whose peers are gone has no leader: the request is carried out once etcd says so. */
    @Test
    void aLeaderlessMemberIsRestartedWithForceNewCluster() throws Exception {
        Path data = dir.resolve("data");
        Path annotations = dir.resolve("annotations");
        Files.writeString(annotations, "");
        int[] ports = LoopbackPorts.reserve(2);
        Process guard = guard(
                List.of("--recovery-file=" + annotations),
                "m1",
                data,
                List.of("--listen-metrics-urls=http://127.0.0.1:" + ports[0]),
                ",m2=http://127.0.0.1:" + ports[1]);
        Await.until("the guard to record the member's WAL", START, () -> Files.exists(dir.resolve("state/m1.started")));
        Files.writeString(annotations, "etcd-operator.cozystack.io/force-new-cluster=\"t1\"\n");
        Await.until(
                "etcd restarted with --force-new-cluster",
                START,
                () -> guard.descendants().anyMatch(p -> arguments(p).contains("--force-new-cluster")));
        assertThat(Files.readString(dir.resolve("m1.log"))).doesNotContain("refusing");
    }

    private String log(String member) {
        try {
            return Files.readString(dir.resolve(member + ".log"));
        } catch (IOException e) {
            return "";
        }
    }

    private static List<String> arguments(ProcessHandle process) {
        return process.info().arguments().map(List::of).orElse(List.of());
    }

    private Process guard(List<String> options, String name, Path data) throws IOException {
        return guard(options, name, data, List.of(), "");
    }

    /** {@code peers}: more members of the initial cluster (",m2=http://..."), which never start. */
    private Process guard(List<String> options, String name, Path data, List<String> etcdFlags, String peers)
            throws IOException {
        int[] ports = LoopbackPorts.reserve(2);
        String peer = "http://127.0.0.1:" + ports[1];
        List<String> line = new ArrayList<>(List.of(guardBinary().toString(), "--state-dir=" + dir.resolve("state")));
        line.addAll(options);
        line.addAll(List.of(
                "--",
                etcd().toString(),
                "--name=" + name,
                "--data-dir=" + data,
                "--initial-cluster-token=token-a",
                "--listen-client-urls=http://127.0.0.1:" + ports[0],
                "--advertise-client-urls=http://127.0.0.1:" + ports[0],
                "--listen-peer-urls=" + peer,
                "--initial-advertise-peer-urls=" + peer,
                "--initial-cluster=" + name + "=" + peer + peers));
        line.addAll(etcdFlags);
        ProcessBuilder builder = new ProcessBuilder(line)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile());
        builder.environment()
                .put(
                        "ETCD_GUARD_TERMINATION_LOG",
                        dir.resolve("termination-log").toString());
        Process process = builder.start();
        started.add(process);
        return process;
    }

    private String terminationMessage() throws IOException {
        return Files.readString(dir.resolve("termination-log"));
    }

    private static Path identity(Path data) {
        return data.resolve("member/etcd-operator-identity");
    }

    private static void wipe(Path data) throws IOException {
        try (Stream<Path> files = Files.walk(data)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static Path guardBinary() {
        Path jar = Path.of(System.getProperty("operator.jar", "../operator/target/x.jar"));
        Path guard = jar.toAbsolutePath().getParent().resolve("etcd-guard");
        assertThat(guard).as("etcd-guard, built by the operator module").isExecutable();
        return guard;
    }

    private static Path etcd() {
        return Optional.ofNullable(System.getProperty("etcd35.bin", System.getenv("ETCD35_BIN")))
                .map(d -> Path.of(d, "etcd"))
                .filter(Files::isExecutable)
                .orElseThrow(() -> new IllegalStateException("ETCD35_BIN/etcd not found"));
    }
}
