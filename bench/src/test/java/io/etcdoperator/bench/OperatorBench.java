package io.etcdoperator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.e2e.E2eEnvironment;
import io.etcdoperator.e2e.LocalKubernetesExtension;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Times the operator on local Kubernetes (run by {@code hack/bench.sh}, Maven profile {@code bench}; never part of
 * the default test run). Every run uses fresh memory-backed clusters, each in its own namespace, deleted after.
 * Settings (system properties): bench.runs (3), bench.idle.seconds (60), bench.fleet (20), bench.settle.seconds
 * (15), bench.out (the Markdown table), bench.progress (progress lines).
 */
@ExtendWith(LocalKubernetesExtension.class)
class OperatorBench {

    private static final Duration STEP = Duration.ofMinutes(10);
    private static final Duration FLEET = Duration.ofMinutes(30);

    private final int runs = Integer.getInteger("bench.runs", 3);
    private final int idleSeconds = Integer.getInteger("bench.idle.seconds", 60);
    private final int fleetSize = Integer.getInteger("bench.fleet", 20);
    private final int settleSeconds = Integer.getInteger("bench.settle.seconds", 15);
    private final ProgressLog progress = ProgressLog.fromProperty("bench");
    /** Only the floor, READY=3, the Pod loss and 3 → 5: for iterating on join times. */
    private final boolean quick = Boolean.getBoolean("bench.quick");

    private BenchReport report;
    private Measurement floor3;
    private Measurement floor5;
    private Measurement ratio3;
    private Measurement ratio5;
    private Measurement ratioScaleUp;
    private Measurement ready1;
    private Measurement ready3;
    private Measurement ready5;
    private Measurement full3;
    private Measurement scaleUp;
    private Measurement podLoss;
    private Measurement rssOne;
    private Measurement cpuOne;
    private Measurement writesOne;
    private Measurement writesFleet;
    private Measurement socketsOne;
    private Measurement socketsFleet;
    private Measurement fleetReady;
    private Measurement rssFleet;
    private Measurement cpuFleet;

    @Test
    void operatorTimingsAndIdleCost(E2eEnvironment env) throws Exception {
        assertThat(runs).as("bench.runs").isPositive();
        defineTable();
        BenchClusters clusters = new BenchClusters(env);
        EtcdFloor floor = EtcdFloor.fromEnvironment();
        for (int run = 1; run <= runs; run++) {
            say("run " + run + "/" + runs);
            double floorThree = floor.bootstrapSeconds(3);
            double floorFive = floor.bootstrapSeconds(5);
            floor3.add(floorThree);
            floor5.add(floorFive);
            say(String.format(Locale.ROOT, "etcd floor: 3 voters %.2f s, 5 voters %.2f s", floorThree, floorFive));
            if (!quick) {
                timeCreation(clusters, "b" + run + "-one", 1, ready1);
            }
            double[] three = lossThenScaleUp(clusters, "b" + run + "-three");
            ratio3.add(three[0] / floorThree);
            ratioScaleUp.add(three[1] / (floorFive - floorThree));
            if (!quick) {
                ratio5.add(timeCreation(clusters, "b" + run + "-five", 5, ready5) / floorFive);
            }
            idleWithOne(env, clusters, "b" + run + "-idle");
            if (!quick) {
                idleWithFleet(env, clusters, "b" + run + "-fleet-");
            }
            report.runDone();
            say("run " + run + " done:\n" + report.text());
        }
        assertThat(List.of(floor3, ready3, scaleUp, podLoss))
                .allSatisfy(m -> assertThat(m.min()).as(m.name()).isPositive());
    }

    private void defineTable() {
        String settings = "etcd " + BenchClusters.VERSION + ", members on tmpfs (medium: Memory, "
                + BenchClusters.TMPFS_SIZE + "), idle window " + idleSeconds + " s after " + settleSeconds
                + " s settling, fleet of " + fleetSize + " three-member clusters";
        report = new BenchReport(Path.of(System.getProperty("bench.out", "target/bench/table.md")), settings);
        floor3 = report.measurement(
                "etcd floor: 3 voters bootstrapped by hand (seed, then learner add → start → promote)", "s");
        floor5 = report.measurement("etcd floor: 5 voters bootstrapped by hand", "s");
        ready1 = report.measurement("EtcdCluster created → READY=1", "s");
        ready3 = report.measurement("EtcdCluster created → READY=3", "s");
        ready5 = report.measurement("EtcdCluster created → READY=5", "s");
        full3 = report.measurement(
                "EtcdCluster created → full strength for 3 (also 3 Pods Ready, 3 started voters)", "s");
        scaleUp = report.measurement("scale-up 3 → 5 (replicas patched → READY=5, 5 voters)", "s");
        ratio3 = report.measurement("READY=3 ÷ etcd floor for 3 (goal ≤ 1.5)", "×");
        ratio5 = report.measurement("READY=5 ÷ etcd floor for 5 (goal ≤ 1.5)", "×");
        ratioScaleUp = report.measurement("scale-up 3 → 5 ÷ (floor for 5 − floor for 3) (goal ≤ 1.5)", "×");
        podLoss = report.measurement("memory member's Pod deleted (grace 0) → READY=3, 3 voters", "s");
        rssOne = report.measurement("operator VmRSS (highest 1 s sample), idle, 1 cluster", "MiB");
        cpuOne = report.measurement("operator CPU time in " + idleSeconds + " s idle, 1 cluster", "s");
        socketsOne = report.measurement("operator TCP connections to etcd per cluster, idle, 1 cluster", "");
        writesOne = report.measurement(
                "API writes (operator's kinds) in " + idleSeconds + " s idle, 1 cluster (goal 0)", "");
        fleetReady = report.measurement(fleetSize + " three-member clusters created at once → all READY=3", "s");
        rssFleet = report.measurement("operator VmRSS (highest 1 s sample), idle, " + fleetSize + " clusters", "MiB");
        cpuFleet =
                report.measurement("operator CPU time in " + idleSeconds + " s idle, " + fleetSize + " clusters", "s");
        socketsFleet = report.measurement(
                "operator TCP connections to etcd per cluster, idle, " + fleetSize + " clusters", "");
        writesFleet = report.measurement(
                "API writes (operator's kinds) in " + idleSeconds + " s idle, " + fleetSize + " clusters (goal 0)", "");
        report.write();
    }

    private double timeCreation(BenchClusters clusters, String name, int replicas, Measurement into) {
        long start = System.nanoTime();
        clusters.create(name, replicas);
        clusters.awaitReadyPrecisely(name, replicas, STEP);
        double seconds = record(into, start);
        clusters.delete(List.of(name));
        return seconds;
    }

    /**
     * READY=3 from creation, then a member's Pod lost and replaced, then 3 → 5, all on one cluster. Returns the
     * seconds to READY=3 and of the scale-up.
     */
    private double[] lossThenScaleUp(BenchClusters clusters, String name) {
        long start = System.nanoTime();
        clusters.create(name, 3);
        clusters.awaitReadyPrecisely(name, 3, STEP);
        double toReady = record(ready3, start);
        // READY counts a new member once etcd answers for it; its Pod's Ready follows on the kubelet's next probe
        clusters.awaitFullStrength(name, 3, STEP);
        record(full3, start);

        Pod victim = clusters.memberPods(name).getFirst();
        start = System.nanoTime();
        String lostUid = clusters.deletePodNow(victim);
        clusters.awaitFullStrength(name, 3, lostUid, STEP);
        record(podLoss, start);

        start = System.nanoTime();
        clusters.scale(name, 5);
        clusters.awaitFullStrength(name, 5, STEP);
        double scaling = record(scaleUp, start);
        clusters.delete(List.of(name));
        return new double[] {toReady, scaling};
    }

    private void idleWithOne(E2eEnvironment env, BenchClusters clusters, String name) throws InterruptedException {
        clusters.create(name, 3);
        clusters.awaitFullStrength(name, 3, STEP);
        idle(env, 1, rssOne, cpuOne, writesOne, socketsOne);
        clusters.delete(List.of(name));
    }

    private void idleWithFleet(E2eEnvironment env, BenchClusters clusters, String prefix) throws InterruptedException {
        List<String> names =
                IntStream.rangeClosed(1, fleetSize).mapToObj(i -> prefix + i).toList();
        long start = System.nanoTime();
        names.forEach(name -> clusters.create(name, 3));
        // one deadline for the whole fleet: each wait returns at once for clusters that are already READY
        long deadline = start + FLEET.toNanos();
        names.forEach(name ->
                clusters.awaitReady(name, 3, Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))));
        record(fleetReady, start);
        idle(env, fleetSize, rssFleet, cpuFleet, writesFleet, socketsFleet);
        clusters.delete(names);
    }

    /** After settling, samples VmRSS every second for the window and takes CPU time at both ends of it. */
    private void idle(
            E2eEnvironment env,
            int clusterCount,
            Measurement rss,
            Measurement cpu,
            Measurement writes,
            Measurement sockets)
            throws InterruptedException {
        long pid = env.operator().pid();
        say("settling " + settleSeconds + " s, then idle window of " + idleSeconds + " s");
        Thread.sleep(Duration.ofSeconds(settleSeconds)); // a fixed wait by design: "idle" has no event to await
        ProcessUsage first = ProcessUsage.of(pid);
        ApiWrites writesBefore = ApiWrites.now(env.client());
        long highestRssKib = first.rssKib();
        ProcessUsage last = first;
        for (int s = 0; s < idleSeconds; s++) {
            Thread.sleep(Duration.ofSeconds(1));
            last = ProcessUsage.of(pid);
            highestRssKib = Math.max(highestRssKib, last.rssKib());
        }
        Map<String, Long> written = ApiWrites.now(env.client()).since(writesBefore);
        rss.add(highestRssKib / 1024.0);
        cpu.add(last.cpuSecondsSince(first));
        writes.add(ApiWrites.total(written));
        int etcdSockets = EtcdSockets.of(pid);
        sockets.add((double) etcdSockets / clusterCount);
        report.write();
        say(String.format(
                Locale.ROOT,
                "idle: VmRSS up to %.0f MiB, CPU %.2f s, API writes %s, %d TCP connections to etcd",
                highestRssKib / 1024.0,
                last.cpuSecondsSince(first),
                written,
                etcdSockets));
    }

    private double record(Measurement into, long startNanos) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        into.add(seconds);
        report.write();
        say(String.format(Locale.ROOT, "%s: %.1f s", into.name(), seconds));
        return seconds;
    }

    private void say(String line) {
        progress.say(line);
    }
}
