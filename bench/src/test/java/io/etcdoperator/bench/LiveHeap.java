package io.etcdoperator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * The bytes a JVM's live objects take: the total of {@code jcmd <pid> GC.class_histogram}, which runs a full
 * collection first. Independent of how far the collector let the heap grow, so it shows what the fleet itself costs.
 */
final class LiveHeap {

    private LiveHeap() {}

    /**
     * Empty when jcmd is missing, the process is not a JVM of the same user, or it does not answer in 2 minutes. The
     * whole histogram is kept in {@code keep}: two runs of different sizes, diffed by class, show what a cluster costs.
     */
    static OptionalLong bytes(long pid, Path keep) {
        try {
            String histogram = Jcmd.run(pid, "GC.class_histogram");
            Files.createDirectories(keep.toAbsolutePath().getParent());
            Files.writeString(keep, histogram);
            String dump = System.getenv("BENCH_HEAP_DUMP"); // a file name: the live objects, for a heap analyser
            if (dump != null && !dump.isBlank()) {
                Jcmd.run(pid, "GC.heap_dump", Path.of(dump).toAbsolutePath().toString());
            }
            return total(histogram);
        } catch (IOException e) {
            return OptionalLong.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalLong.empty();
        }
    }

    /** The bytes column of the histogram's {@code Total} line. */
    static OptionalLong total(String histogram) {
        return histogram
                .lines()
                .map(String::strip)
                .filter(l -> l.startsWith("Total"))
                .findFirst()
                .map(l -> l.split("\\s+"))
                .filter(f -> f.length >= 3)
                .map(f -> OptionalLong.of(Long.parseLong(f[2])))
                .orElse(OptionalLong.empty());
    }
}
