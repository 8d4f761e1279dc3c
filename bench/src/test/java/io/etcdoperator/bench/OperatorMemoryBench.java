package io.etcdoperator.bench;

import static org.assertj.core.api.Assumptions.assumeThat;

import io.etcdoperator.e2e.E2eEnvironment;
import io.etcdoperator.e2e.LocalKubernetesExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Resident memory of the operator in its container (the chart's Pod from the image) with 1 and with 20 three-member
 * clusters, for each JVM setting of {@link #VARIANTS}: the chart is upgraded with the setting (JDK_JAVA_OPTIONS,
 * MALLOC_ARENA_MAX, the memory limit), and the new Pod re-reads every cluster before it is sampled. Run with
 * {@code mvn verify -Pbench -pl bench -Dit.test=OperatorMemoryBench}; the table goes to target/bench/memory.md.
 */
@ExtendWith(LocalKubernetesExtension.class)
class OperatorMemoryBench {

    private static final Duration SETTLE = Duration.ofSeconds(Long.getLong("mem.settle.seconds", 15));
    private static final int WINDOW_SECONDS = Integer.getInteger("mem.window.seconds", 20);
    private static final int FLEET = Integer.getInteger("mem.fleet", 20);
    private static final Path OUT = Path.of(System.getProperty("mem.out", "target/bench/memory.md"));

    /** name, JDK_JAVA_OPTIONS ("" = the image's own), MALLOC_ARENA_MAX ("" = glibc's default), memory limit. */
    record Variant(String name, String javaOptions, String mallocArenas, String limit) {}

    static List<Variant> variants() {
        String only = System.getProperty("mem.variants", "");
        List<Variant> all = List.of(VARIANTS);
        return only.isBlank()
                ? all
                : all.stream()
                        .filter(v -> List.of(only.split(",")).contains(v.name()))
                        .toList();
    }

    // the image's JDK_JAVA_OPTIONS (hack/image/Containerfile) before this measurement
    private static final String SHIPPED = "-XX:MaxRAMPercentage=60 -XX:InitialRAMPercentage=20 "
            + "-XX:+UseSerialGC -Xss512k -XX:MaxMetaspaceSize=96m -XX:ReservedCodeCacheSize=48m -XX:TieredStopAtLevel=1 "
            + "-XX:-UsePerfData -Xshare:auto -Djava.io.tmpdir=/tmp";
    private static final String LEAN = SHIPPED + " -Xmx64m -Xms16m -Xss256k -XX:ReservedCodeCacheSize=24m"
            + " -XX:TrimNativeHeapInterval=5000 -Dio.netty.allocator.numDirectArenas=1 -Dio.netty.allocator.numHeapArenas=1";
    // native memory by category, printed to the container log when the JVM exits
    private static final String PRINT_NMT =
            " -XX:NativeMemoryTracking=summary -XX:+UnlockDiagnosticVMOptions" + " -XX:+PrintNMTStatistics";
    private static final String FREE_RATIOS = " -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20";
    private static final Variant[] VARIANTS = {
        new Variant("image", "", "", "384Mi"),
        new Variant("arena2", SHIPPED, "2", "384Mi"),
        new Variant("xmx64", SHIPPED + " -Xmx64m -Xms16m", "2", "384Mi"),
        new Variant("lean", LEAN, "2", "384Mi"),
        new Variant("lean-noshare", LEAN.replace("-Xshare:auto", "-Xshare:off"), "2", "384Mi"),
        new Variant("g1", SHIPPED.replace("-XX:+UseSerialGC", "-XX:+UseG1GC") + " -Xmx64m", "2", "384Mi"),
        new Variant("c2", SHIPPED.replace("-XX:TieredStopAtLevel=1 ", "") + " -Xmx64m", "2", "384Mi"),
        new Variant("lean-coh", LEAN + " -XX:+UseCompactObjectHeaders", "2", "384Mi"),
        new Variant("lean48", LEAN.replace("-Xmx64m", "-Xmx48m") + " -XX:+UseCompactObjectHeaders", "2", "384Mi"),
        new Variant(
                "lean-unpooled",
                LEAN + " -XX:+UseCompactObjectHeaders -Dio.netty.allocator.type=unpooled",
                "2",
                "384Mi"),
        // the shipped candidate: heap a share of the limit, so a larger limit (many clusters) gives a larger heap
        new Variant(
                "pct25",
                LEAN.replace("-XX:MaxRAMPercentage=60 -XX:InitialRAMPercentage=20", "")
                                .replace("-Xmx64m -Xms16m", "-XX:MaxRAMPercentage=25 -XX:InitialRAMPercentage=6")
                        + " -XX:+UseCompactObjectHeaders",
                "2",
                "256Mi"),
        // native memory by category, printed to the container log when the next setting's rollout stops this Pod
        new Variant("nmt", LEAN + " -XX:+UseCompactObjectHeaders" + PRINT_NMT, "2", "384Mi"),
        // the image as it ships, under the chart's default limit; then with String deduplication added
        new Variant("shipped", "", "", "256Mi"),
        new Variant("shipped-dedup", imageJavaOptions() + " -XX:+UseStringDeduplication", "2", "256Mi"),
        // the image's flags without -XX:MinRAMPercentage=25: under a 256Mi limit the heap may grow to half of it
        new Variant("shipped-min50", imageJavaOptions().replace("-XX:MinRAMPercentage=25 ", ""), "2", "256Mi"),
        // the image's flags with native memory tracking, printed to the container log when the next rollout stops it
        new Variant("shipped-nmt", imageJavaOptions() + PRINT_NMT, "2", "256Mi"),
        // the image's flags with a heap that grows only while less than 10% of it is free after a collection, and
        // shrinks once more than 20% is (SerialGC resizes after a full collection): committed closer to live
        new Variant("shipped-freeratio", imageJavaOptions() + FREE_RATIOS, "", "256Mi"),
        new Variant("shipped-freeratio-nmt", imageJavaOptions() + FREE_RATIOS + PRINT_NMT, "", "256Mi"),
        new Variant("end", "", "", "384Mi"),
    };

    /**
     * The image's flags (hack/image/jvm.options, an argument file of its entrypoint). Since they moved there a Pod's
     * JDK_JAVA_OPTIONS adds to them and, for a flag set twice, loses: the variants that change or drop one of them
     * no longer measure what their names say without replacing the container's command.
     */
    private static String imageJavaOptions() {
        try {
            Path options = E2eEnvironment.projectRoot().resolve("hack/image/jvm.options");
            return String.join(
                    " ",
                    Files.readAllLines(options).stream()
                            .map(String::strip)
                            .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                            .toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void residentMemoryPerJvmSettingWithOneAndTwentyClusters(E2eEnvironment env) throws Exception {
        assumeThat(env.operatorFromImage())
                .as("the operator runs from its image")
                .isTrue();
        Files.createDirectories(OUT.toAbsolutePath().getParent());
        Files.writeString(
                OUT,
                "| setting | clusters | VmRSS highest | VmRSS last | CPU s in window |\n" + "|---|---|---|---|---|\n");
        BenchClusters clusters = new BenchClusters(env);
        clusters.create("mem-00", 3);
        clusters.awaitReady("mem-00", 3, Duration.ofMinutes(4));
        for (Variant variant : variants()) {
            measure(env, variant, 1);
        }
        List<String> fleet = IntStream.range(1, FLEET)
                .mapToObj(i -> String.format("mem-%02d", i))
                .toList();
        Instant start = Instant.now();
        fleet.forEach(name -> clusters.create(name, 3));
        for (String name : fleet) {
            clusters.awaitReady(name, 3, Duration.ofMinutes(10));
        }
        say("fleet of " + FLEET + " READY=3 in "
                + Duration.between(start, Instant.now()).toSeconds() + " s");
        for (Variant variant : variants()) {
            measure(env, variant, FLEET);
        }
    }

    private void measure(E2eEnvironment env, Variant variant, int clusters) throws Exception {
        List<String> env2 = new ArrayList<>();
        if (!variant.javaOptions().isEmpty()) {
            env2.add("{\"name\":\"JDK_JAVA_OPTIONS\",\"value\":\"" + variant.javaOptions() + "\"}");
        }
        if (!variant.mallocArenas().isEmpty()) {
            env2.add("{\"name\":\"MALLOC_ARENA_MAX\",\"value\":\"" + variant.mallocArenas() + "\"}");
        }
        try {
            env.upgradeChart(List.of(
                    "--set-json",
                    "extraEnv=[" + String.join(",", env2) + "]",
                    "--set",
                    "resources.limits.memory=" + variant.limit()));
        } catch (RuntimeException | AssertionError e) {
            // e.g. a heap too small to start: the row says so and the next setting is measured
            Files.writeString(
                    OUT,
                    "| " + variant.name() + " | " + clusters + " | did not become Ready: "
                            + e.getMessage().replace('|', '/') + " | | |\n",
                    StandardOpenOption.APPEND);
            say(variant.name() + " did not become Ready: " + e.getMessage());
            return;
        }
        Thread.sleep(SETTLE); // a fixed wait by design: "idle" has no event to await
        long pid = env.operator().pid();
        ProcessUsage first = ProcessUsage.of(pid);
        long highest = first.rssKib();
        ProcessUsage last = first;
        for (int s = 0; s < WINDOW_SECONDS; s++) {
            Thread.sleep(Duration.ofSeconds(1));
            last = ProcessUsage.of(pid);
            highest = Math.max(highest, last.rssKib());
        }
        String row = String.format(
                "| %s | %d | %.0f MiB | %.0f MiB | %.2f |%n",
                variant.name(), clusters, highest / 1024.0, last.rssMib(), last.cpuSecondsSince(first));
        Files.writeString(OUT, row, StandardOpenOption.APPEND);
        say(row.strip());
    }

    private static void say(String line) {
        System.out.println("memory-bench " + Instant.now() + " " + line);
    }
}
