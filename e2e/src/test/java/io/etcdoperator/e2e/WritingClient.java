package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A client Pod (not a member, so no roll restarts it) that puts unique keys k00000, k00001, ... through a cluster's
 * client Service for as long as a test disrupts the cluster, and samples READY meanwhile. A key is retried until it
 * is acknowledged or {@link #RETRY_FOR} ends; the test reads every acknowledged key back at the end.
 */
final class WritingClient implements AutoCloseable {

    static final Duration RETRY_FOR = Duration.ofSeconds(30);

    private final E2eEnvironment env;
    private final String ns;
    private final String cluster;
    private final Pod pod;
    private final Supplier<String> etcdctl;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger retries = new AtomicInteger();
    private final AtomicInteger fewestReady = new AtomicInteger(Integer.MAX_VALUE);
    private final AtomicInteger samples = new AtomicInteger();
    private volatile Duration longestGap = Duration.ZERO;
    private volatile Throwable error;
    private Thread writing;
    private Thread sampling;

    private WritingClient(E2eEnvironment env, String ns, String cluster, Pod pod, Supplier<String> etcdctl) {
        this.env = env;
        this.ns = ns;
        this.cluster = cluster;
        this.pod = pod;
        this.etcdctl = etcdctl;
    }

    /** A plaintext client of {@code <cluster>-client.<ns>.svc}. */
    static WritingClient plaintext(E2eEnvironment env, String ns, String cluster) {
        String endpoint = "http://" + cluster + "-client." + ns + ".svc:2379";
        return new WritingClient(
                env,
                ns,
                cluster,
                clientPod(env, ns),
                () -> "etcdctl --endpoints=" + endpoint + " --dial-timeout=3s --command-timeout=5s");
    }

    /** A client whose etcdctl prefix is computed before every call (e.g. to follow certificate renewals). */
    static WritingClient with(E2eEnvironment env, String ns, String cluster, Supplier<String> etcdctl) {
        return new WritingClient(env, ns, cluster, clientPod(env, ns), etcdctl);
    }

    WritingClient start() {
        writing = Thread.ofVirtual().start(() -> {
            try {
                write();
            } catch (RuntimeException | Error e) {
                error = e;
            }
        });
        sampling = Thread.ofVirtual().start(this::sample);
        return this;
    }

    /** Stops writing and sampling and waits for both to finish. */
    void stop() throws InterruptedException {
        running.set(false);
        writing.join(Duration.ofMinutes(1));
        sampling.join(Duration.ofSeconds(10));
    }

    @Override
    public void close() throws InterruptedException {
        if (running.get() && writing != null) {
            stop();
        }
    }

    private void write() {
        Instant lastAck = Instant.now();
        for (int i = 0; running.get(); i++) {
            String key = String.format("k%05d", i);
            Instant giveUp = Instant.now().plus(RETRY_FOR);
            boolean acked = false;
            while (!acked && Instant.now().isBefore(giveUp)) {
                acked = etcdctl("put " + key + " v" + i) == 0;
                if (!acked) {
                    retries.incrementAndGet();
                }
            }
            if (acked) {
                acknowledged.add(key);
                Instant now = Instant.now();
                Duration gap = Duration.between(lastAck, now);
                if (gap.compareTo(longestGap) > 0) {
                    longestGap = gap;
                }
                lastAck = now;
            } else {
                failed.incrementAndGet();
            }
        }
    }

    private void sample() {
        while (running.get()) {
            fewestReady.accumulateAndGet(ready(env, ns, cluster), Math::min);
            samples.incrementAndGet();
            try {
                Thread.sleep(500); // a sampling period, not a wait for a condition
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    int etcdctl(String args) {
        return env.kube()
                .faults()
                .nodeOf(ns, pod.getMetadata().getName())
                .exec(
                        ns,
                        pod.getMetadata().getName(),
                        "writer",
                        List.of("sh", "-c", etcdctl.get() + " " + args),
                        Duration.ofSeconds(20));
    }

    /** Every acknowledged key that a final read does not return. */
    Set<String> unreadAcknowledged(Path out) throws IOException {
        Path keys = out.resolve("keys-" + cluster + ".txt");
        int code = etcdctl("get k --prefix --keys-only > " + keys);
        assertThat(code).as("final read of every key").isZero();
        Set<String> found =
                Files.readAllLines(keys).stream().filter(l -> !l.isBlank()).collect(Collectors.toSet());
        Set<String> missing = new HashSet<>(acknowledged);
        missing.removeAll(found);
        return missing;
    }

    /** One line for the test log and docs: the numbers of this run. */
    String summary() {
        return String.format(
                "%d acknowledged writes, %d failed, %d retried attempts, longest gap between acknowledged "
                        + "writes %d ms, fewest READY %d of %d samples",
                acknowledged.size(),
                failed.get(),
                retries.get(),
                longestGap.toMillis(),
                fewestReady.get(),
                samples.get());
    }

    List<String> acknowledged() {
        return List.copyOf(acknowledged);
    }

    int failed() {
        return failed.get();
    }

    int retries() {
        return retries.get();
    }

    Duration longestGap() {
        return longestGap;
    }

    int fewestReady() {
        return fewestReady.get();
    }

    int samples() {
        return samples.get();
    }

    Throwable error() {
        return error;
    }

    static int ready(E2eEnvironment env, String ns, String cluster) {
        Object ready = E2eEnvironment.status(env.cluster(ns, cluster)).get("readyMembers");
        return ready instanceof Number n ? n.intValue() : 0;
    }

    /** A busybox Pod; its name is unique per cluster so two clients can share a namespace. */
    private static Pod clientPod(E2eEnvironment env, String ns) {
        String name = "writer-" + Long.toHexString(System.nanoTime() & 0xffffff);
        env.client()
                .pods()
                .inNamespace(ns)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("writer")
                        .withImage("busybox")
                        .withCommand("sh", "-c", "sleep 3600")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
        return Await.value(
                "writer Pod running",
                Duration.ofMinutes(2),
                () -> Optional.ofNullable(env.client()
                                .pods()
                                .inNamespace(ns)
                                .withName(name)
                                .get())
                        .filter(p -> p.getStatus() != null
                                && "Running".equals(p.getStatus().getPhase())
                                && p.getStatus().getPodIP() != null));
    }
}
