package io.etcdoperator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.e2e.ApiServerAudit;
import io.etcdoperator.e2e.E2eEnvironment;
import io.etcdoperator.localkube.LocalKubernetesOptions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * N three-member clusters (default 1000, {@code -Dbench.simulated.clusters=N}) created at once against the real
 * operator on local Kubernetes in simulated-etcd mode (member Pods answered by an in-process etcd, no processes).
 * Reports the time to all READY=3, the operator's RSS and CPU, API server requests and, from the operator's log,
 * where each cluster's time went. Written to target/bench/simulated.md. Run by {@code hack/bench.sh --simulated N}.
 */
class SimulatedFleetBench {

    private static final Path WORK =
            Path.of("target", "sim-bench-" + ProcessHandle.current().pid()).toAbsolutePath();

    private final int clusters = Integer.getInteger("bench.simulated.clusters", 1000);
    private final int idleSeconds = Integer.getInteger("bench.simulated.idle.seconds", 60);
    private final int settleSeconds = Integer.getInteger("bench.settle.seconds", 15);
    private final boolean profileIdle = Boolean.getBoolean("bench.simulated.profile");
    private final boolean profileFormation = Boolean.getBoolean("bench.simulated.profile.formation");
    // each poll LISTs every cluster through the aggregator: a big fleet is polled less often, so as not to load it
    private final Duration poll = Duration.ofSeconds(clusters > 200 ? 5 : 2);
    private final Duration timeout = Duration.ofMinutes(Integer.getInteger("bench.simulated.timeout.minutes", 90));
    private final Path out = Path.of(System.getProperty("bench.simulated.out", "target/bench/simulated.md"));
    private final ProgressLog progress = ProgressLog.fromProperty("simulated-fleet");
    private final Map<String, Instant> created = new ConcurrentHashMap<>();
    private final Map<String, Instant> ready = new ConcurrentHashMap<>();
    private final List<String> report = new ArrayList<>();
    private final Map<String, Map<String, Long>> passes = new LinkedHashMap<>();

    @Test
    void simulatedFleetToReady() throws Exception {
        try (E2eEnvironment env =
                E2eEnvironment.start(WORK, LocalKubernetesOptions.defaults().withSimulatedEtcd())) {
            long operator = env.operator().pid();
            RssSampler rss = RssSampler.start(operator);
            ApiServerRequests requestsBefore = requests(env);
            OperatorPasses passesBefore = passes(env);
            ProcessTree cpuBefore = ProcessTree.sample();
            say("creating " + clusters + " clusters");

            IdleProfile forming = profileFormation ? IdleProfile.start(operator) : null;
            Instant start = Instant.now();
            // polled from the start: on a loaded machine creating a big fleet takes minutes, and early clusters are
            // done
            Thread poller = Thread.ofPlatform().daemon().name("ready-poller").start(() -> awaitAllReady(env, start));
            for (int i = 1; i <= clusters; i++) {
                String name = String.format("sim-%04d", i);
                env.namespace(name);
                env.createCluster(
                        name,
                        name,
                        Map.of(
                                "replicas",
                                3,
                                "version",
                                "3.5.16",
                                "storage",
                                Map.of("medium", "Memory", "size", "256Mi")));
                created.put(name, Instant.now());
            }
            Duration creating = Duration.between(start, Instant.now());
            say("created in " + seconds(creating) + " s; waiting for READY=3");
            poller.join();
            Duration allReady = Duration.between(start, Instant.now());
            if (forming != null) {
                forming.stop(
                        out.resolveSibling("simulated-formation.jfr"),
                        out.resolveSibling("simulated-formation-profile.txt"));
            }
            ProcessTree cpuReady = ProcessTree.sample();
            ApiServerRequests requestsReady = requests(env);
            OperatorPasses passesReady = passes(env);
            passes.put("while the fleet formed", passesReady.since(passesBefore));
            double peakRss = rss.stop();
            say("all " + ready.size() + " READY=3 after " + seconds(allReady) + " s; operator peak RSS "
                    + Math.round(peakRss) + " MiB");

            Thread.sleep(Duration.ofSeconds(settleSeconds)); // a fixed wait by design: "idle" has no event to await
            var audit = new ApiServerAudit(env.kube().controlPlane().auditLog());
            long idleMark = audit.mark();
            IdleProfile profile = profileIdle ? IdleProfile.start(operator) : null;
            ProcessUsage idleStart = ProcessUsage.of(operator);
            ThreadCpu threadsAtStart = ThreadCpu.of(operator);
            double idleRss = idleStart.rssMib();
            ProcessUsage idleEnd = idleStart;
            for (int s = 0; s < idleSeconds; s++) {
                Thread.sleep(Duration.ofSeconds(1));
                idleEnd = ProcessUsage.of(operator);
                idleRss = Math.max(idleRss, idleEnd.rssMib());
            }
            double idleCpu = idleEnd.cpuSecondsSince(idleStart);
            ThreadCpu.of(operator)
                    .writeSince(threadsAtStart, out.resolveSibling("simulated-idle-threads.txt"), idleCpu);
            if (profile != null) {
                profile.stop(
                        out.resolveSibling("simulated-idle.jfr"), out.resolveSibling("simulated-idle-profile.txt"));
            }
            String rssSplit = ProcessUsage.rssSplit(operator);
            ApiServerRequests requestsIdle = requests(env);
            passes.put("in the settle + idle window", passes(env).since(passesReady));
            Map<String, Long> operatorIdle = new TreeMap<>();
            audit.operatorRequestsSince(idleMark)
                    .forEach(r -> operatorIdle.merge(r.verb() + " " + r.resource(), 1L, Long::sum));
            // after the idle window: its full collection would disturb it
            OptionalLong live = LiveHeap.bytes(operator, out.resolveSibling("simulated-histogram.txt"));

            FleetTimeline timeline =
                    FleetTimeline.parse(env.operator().logText().lines());
            // last: the copies would be reconciled by a running operator, so it stops here
            env.stopOperator();
            FleetFloor.Result floor = new FleetFloor(env, "sim-0001", "sim-0001").measure(clusters, timeout);
            say("floor: " + clusters + " clusters' objects accepted in " + seconds(floor.accepted()) + " s, their "
                    + floor.pods() + " Pods running after " + seconds(floor.running()) + " s");
            write(
                    start,
                    creating,
                    allReady,
                    peakRss,
                    idleRss,
                    rssSplit,
                    idleCpu,
                    live,
                    timeline,
                    cpuReady.since(cpuBefore),
                    requestsReady.since(requestsBefore),
                    requestsIdle.since(requestsReady),
                    operatorIdle,
                    floor);
            assertThat(ready).as("clusters at READY=3").hasSize(clusters);
        }
    }

    /** Lists every EtcdCluster each poll (one LIST, not one GET per cluster) and notes when each first had 3 ready. */
    private void awaitAllReady(E2eEnvironment env, Instant start) {
        Instant deadline = start.plus(timeout);
        Instant nextSay = Instant.now().plus(Duration.ofSeconds(30));
        while (ready.size() < clusters) {
            if (Instant.now().isAfter(deadline)) {
                say("timed out: " + ready.size() + " of " + clusters + " READY=3");
                return;
            }
            Instant now = Instant.now();
            try {
                for (GenericKubernetesResource cluster : env.client()
                        .genericKubernetesResources(E2eEnvironment.CLUSTERS)
                        .inAnyNamespace()
                        .list()
                        .getItems()) {
                    if (Integer.valueOf(3).equals(E2eEnvironment.status(cluster).get("readyMembers"))) {
                        ready.putIfAbsent(cluster.getMetadata().getName(), now);
                    }
                }
            } catch (KubernetesClientException e) {
                say("listing clusters failed, next poll retries: " + e.getMessage());
            }
            if (now.isAfter(nextSay)) {
                say(ready.size() + "/" + clusters + " READY=3 after " + seconds(Duration.between(start, now)) + " s");
                nextSay = now.plus(Duration.ofSeconds(30));
            }
            try {
                Thread.sleep(poll);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void write(
            Instant start,
            Duration creating,
            Duration allReady,
            double peakRss,
            double idleRss,
            String rssSplit,
            double idleCpu,
            OptionalLong live,
            FleetTimeline timeline,
            Map<String, Double> cpu,
            Map<String, Long> rampRequests,
            Map<String, Long> idleRequests,
            Map<String, Long> operatorIdle,
            FleetFloor.Result floor)
            throws IOException {
        line("## " + clusters + " simulated three-member clusters");
        line("");
        line("| measurement | value |");
        line("|---|---|");
        line("| " + clusters + " EtcdClusters created (namespace + EtcdCluster each, sequential calls) | "
                + seconds(creating) + " s |");
        for (int pct : new int[] {10, 50, 90, 100}) {
            line("| first → " + pct + " % of clusters READY=3 (from the first create call) | "
                    + seconds(readyAfter(start, pct)) + " s |");
        }
        line("| all " + clusters + " READY=3 | " + seconds(allReady) + " s |");
        line(
                "| floor: the same objects (EtcdCluster, Services, PDB, EtcdMembers, member Pods) created with the operator "
                        + "stopped, " + "8 writers: all accepted / all " + floor.pods() + " Pods Running | "
                        + seconds(floor.accepted()) + " s / " + seconds(floor.running()) + " s |");
        line(String.format(
                "| all READY=3 ÷ the floor's all Pods Running | %.2f× |", secs(allReady) / secs(floor.running())));
        line("| operator VmRSS, highest 1 s sample while the fleet formed | " + Math.round(peakRss) + " MiB |");
        line("| operator VmRSS, highest 1 s sample in " + idleSeconds + " s idle (after " + settleSeconds
                + " s settling) | " + Math.round(idleRss) + " MiB |");
        line("| operator VmRSS at the end of the idle window | " + rssSplit + " |");
        line("| operator live heap after the idle window (full collection; jcmd GC.class_histogram) | "
                + (live.isPresent() ? Math.round(live.getAsLong() / 1048576.0) + " MiB" : "not measured") + " |");
        line("| operator JVM flags | `" + E2eEnvironment.hostOperatorJvm() + "` |");
        line(String.format(
                "| operator CPU time in %d s idle | %.2f s (%.2f ms per cluster per minute) |",
                idleSeconds, idleCpu, idleCpu * 1000 / clusters * 60 / idleSeconds));
        line("| reason changes logged (ClusterReport lines) per cluster, median / max | "
                + median(c -> (double) timeline.passes(c)) + " / " + max(c -> (double) timeline.passes(c)) + " |");
        line("| member adds refused by etcd's 5 s gate per cluster, median / max | "
                + median(c -> (double) timeline.refusedAdds(c)) + " / " + max(c -> (double) timeline.refusedAdds(c))
                + " |");
        line("| operator threads that logged a cluster report | " + timeline.reconcilerThreads() + " |");
        line("");
        line("Where each cluster's time went (from the operator's log; p50 / p90 / max over the clusters, seconds):");
        line("");
        line("| phase | p50 | p90 | max |");
        line("|---|---|---|---|");
        Map<String, BiFunction<String, FleetTimeline, Double>> phases = phases();
        phases.forEach((phase, measure) -> {
            List<Double> values = created.keySet().stream()
                    .map(c -> measure.apply(c, timeline))
                    .filter(v -> v != null && !v.isNaN())
                    .toList();
            line(String.format(
                    "| %s | %.1f | %.1f | %.1f |",
                    phase,
                    FleetTimeline.percentile(values, 50),
                    FleetTimeline.percentile(values, 90),
                    FleetTimeline.percentile(values, 100)));
        });
        line("");
        line("CPU seconds per process while the fleet formed:");
        line("");
        line("| process | CPU s |");
        line("|---|---|");
        cpu.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .filter(e -> e.getValue() >= 0.5)
                .forEach(e -> line(String.format("| %s | %.1f |", e.getKey(), e.getValue())));
        line("");
        passes.forEach((when, counted) -> {
            line("The operator's passes " + when + " (its /metrics; per cluster in brackets):");
            line("");
            line("| counter | passes |");
            line("|---|---|");
            counted.forEach((name, n) -> line(String.format("| `%s` | %d (%.1f) |", name, n, (double) n / clusters)));
            line("");
        });
        requestTable("kube-apiserver requests while the fleet formed (all clients; top 25)", rampRequests);
        requestTable("kube-apiserver requests in the settle + idle window (all clients; top 25)", idleRequests);
        requestTable(
                "the operator's requests in the " + idleSeconds + " s idle window (kube-apiserver's audit log, by its "
                        + "User-Agent; watches and its Lease left out)",
                operatorIdle);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, String.join("\n", report) + "\n");
        say("report written to " + out.toAbsolutePath() + "\n" + String.join("\n", report));
    }

    /** Each phase from one logged milestone to the next; the last ends when the bench saw READY=3. */
    private Map<String, BiFunction<String, FleetTimeline, Double>> phases() {
        Map<String, BiFunction<String, FleetTimeline, Double>> phases = new LinkedHashMap<>();
        phases.put(
                "created → first pass (InitialSnapshot): waiting in the operator's queue",
                (c, t) -> t.at(c, "InitialSnapshot", 1)
                        .map(at -> secs(Duration.between(created.get(c), at)))
                        .orElse(null));
        phases.put(
                "first pass → cluster ID seen (ClusterDiscovered): seed EtcdMember, Pod, Ready",
                (c, t) -> step(t, c, "InitialSnapshot", 1, "ClusterDiscovered", 1));
        phases.put(
                "ClusterDiscovered → 1st LearnerAdded",
                (c, t) -> step(t, c, "ClusterDiscovered", 1, "LearnerAdded", 1));
        phases.put(
                "1st LearnerAdded → 1st LearnerPromoted (Pod, catch-up)",
                (c, t) -> step(t, c, "LearnerAdded", 1, "LearnerPromoted", 1));
        phases.put(
                "1st LearnerPromoted → 2nd LearnerAdded (etcd's 5 s gate)",
                (c, t) -> step(t, c, "LearnerPromoted", 1, "LearnerAdded", 2));
        phases.put(
                "2nd LearnerAdded → 2nd LearnerPromoted",
                (c, t) -> step(t, c, "LearnerAdded", 2, "LearnerPromoted", 2));
        phases.put(
                "2nd LearnerPromoted → READY=3 seen (status write, " + poll.toSeconds() + " s poll)",
                (c, t) -> t.at(c, "LearnerPromoted", 2)
                        .filter(at -> ready.containsKey(c))
                        .map(at -> secs(Duration.between(at, ready.get(c))))
                        .orElse(null));
        phases.put(
                "created → READY=3 seen",
                (c, t) -> ready.containsKey(c) ? secs(Duration.between(created.get(c), ready.get(c))) : null);
        return phases;
    }

    private static Double step(FleetTimeline t, String c, String from, int fromNth, String to, int toNth) {
        return t.between(c, from, fromNth, to, toNth)
                .map(SimulatedFleetBench::secs)
                .orElse(null);
    }

    private Duration readyAfter(Instant start, int percent) {
        List<Instant> times = ready.values().stream().sorted().toList();
        int index = (int) Math.ceil(percent / 100.0 * clusters) - 1;
        return index < times.size() ? Duration.between(start, times.get(Math.max(0, index))) : Duration.ZERO;
    }

    private String median(Function<String, Double> per) {
        return String.format(
                "%.0f",
                FleetTimeline.percentile(created.keySet().stream().map(per).toList(), 50));
    }

    private String max(Function<String, Double> per) {
        return String.format(
                "%.0f",
                FleetTimeline.percentile(created.keySet().stream().map(per).toList(), 100));
    }

    private void requestTable(String title, Map<String, Long> requests) {
        line(title + ", "
                + requests.values().stream().mapToLong(Long::longValue).sum() + " in all:");
        line("");
        line("| verb resource | requests |");
        line("|---|---|");
        requests.entrySet().stream().limit(25).forEach(e -> line("| " + e.getKey() + " | " + e.getValue() + " |"));
        line("");
    }

    private static ApiServerRequests requests(E2eEnvironment env) {
        String base = env.client().getMasterUrl().toString().replaceAll("/$", "");
        return ApiServerRequests.parse(env.client().raw(base + "/metrics"));
    }

    private static OperatorPasses passes(E2eEnvironment env) {
        return OperatorPasses.parse(env.operator().get("/metrics").body());
    }

    private static double secs(Duration d) {
        return d.toMillis() / 1000.0;
    }

    private static String seconds(Duration d) {
        return String.format("%.1f", secs(d));
    }

    private void line(String text) {
        report.add(text);
    }

    private void say(String line) {
        progress.say(line);
    }

    /** The highest VmRSS of a process, sampled every second on a daemon thread until stopped. */
    private static final class RssSampler {
        private final long pid;
        private volatile boolean running = true;
        private volatile double highest;
        private Thread thread;

        static RssSampler start(long pid) {
            RssSampler sampler = new RssSampler(pid);
            sampler.thread = Thread.ofPlatform().daemon().name("rss-sampler").start(sampler::run);
            return sampler;
        }

        private RssSampler(long pid) {
            this.pid = pid;
        }

        private void run() {
            while (running) {
                highest = Math.max(highest, ProcessUsage.of(pid).rssMib());
                try {
                    Thread.sleep(Duration.ofSeconds(1));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        double stop() throws InterruptedException {
            running = false;
            thread.interrupt();
            thread.join();
            return Math.max(highest, ProcessUsage.of(pid).rssMib());
        }
    }
}
