package io.etcdoperator.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Resident memory and CPU time of a Linux process from /proc. CPU ticks are converted with CLK_TCK = 100, the
 * value on every Linux/x86-64 and arm64 kernel build in use.
 *
 * @param rssKib VmRSS from /proc/&lt;pid&gt;/status, in KiB
 * @param cpuTicks utime + stime from /proc/&lt;pid&gt;/stat, all threads, in clock ticks
 */
public record ProcessUsage(long rssKib, long cpuTicks) {

    static final int CLOCK_TICKS_PER_SECOND = 100;

    public static ProcessUsage of(long pid) {
        return new ProcessUsage(rssKib(proc(pid, "status")), cpuTicks(proc(pid, "stat")));
    }

    private static String proc(long pid, String file) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc of process " + pid + " (has it exited?)", e);
        }
    }

    public double rssMib() {
        return rssKib / 1024.0;
    }

    /** CPU seconds spent between {@code earlier} and this sample. */
    public double cpuSecondsSince(ProcessUsage earlier) {
        return (cpuTicks - earlier.cpuTicks) / (double) CLOCK_TICKS_PER_SECOND;
    }

    static long rssKib(String status) {
        return kib(status, "VmRSS");
    }

    /**
     * VmRSS as "anonymous + file-backed + shared" MiB (RssAnon, RssFile, RssShmem): the heap, metaspace and malloc are
     * anonymous; libjvm, the jimage and a class-data archive are file-backed.
     */
    public static String rssSplit(long pid) {
        return rssSplit(proc(pid, "status"));
    }

    static String rssSplit(String status) {
        return Math.round(kib(status, "RssAnon") / 1024.0) + " anonymous + "
                + Math.round(kib(status, "RssFile") / 1024.0) + " file-backed + "
                + Math.round(kib(status, "RssShmem") / 1024.0) + " shared MiB";
    }

    private static long kib(String status, String field) {
        return status.lines()
                .filter(line -> line.startsWith(field + ":"))
                .findFirst()
                .map(line -> Long.parseLong(
                        line.substring(field.length() + 1).replace("kB", "").strip()))
                .orElseThrow(() -> new IllegalArgumentException("no " + field + " line in /proc/<pid>/status"));
    }

    static long cpuTicks(String stat) {
        long[] ticks = userAndSystemTicks(stat);
        return ticks[0] + ticks[1];
    }

    /** Fields 14 and 15 (utime, stime); counted after the last ')' because the command name may hold spaces. */
    static long[] userAndSystemTicks(String stat) {
        String[] afterName = stat.substring(stat.lastIndexOf(')') + 2).strip().split("\\s+");
        // afterName[0] is field 3 (state), so field k is afterName[k - 3]
        return new long[] {Long.parseLong(afterName[14 - 3]), Long.parseLong(afterName[15 - 3])};
    }
}
