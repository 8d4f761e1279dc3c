package io.etcdoperator.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * User and system CPU of each thread of a Linux process (/proc/&lt;pid&gt;/task/*&#47;stat), by thread name with
 * digits dropped. It sees what a JFR profile cannot: the kernel's share of socket calls, the collector, the compiler
 * and JFR itself.
 *
 * @param ticks thread name to {user, system} clock ticks
 */
record ThreadCpu(Map<String, long[]> ticks) {

    static ThreadCpu of(long pid) {
        Map<String, long[]> ticks = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            tasks.forEach(task -> read(task.resolve("stat")).ifPresent(stat -> add(ticks, stat)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the threads of process " + pid, e);
        }
        return new ThreadCpu(ticks);
    }

    private static Optional<String> read(Path stat) {
        try {
            return Optional.of(Files.readString(stat));
        } catch (IOException e) {
            return Optional.empty(); // the thread ended between the listing and the read
        }
    }

    /** One task's stat line: its name between the parentheses, utime and stime as fields 14 and 15. */
    static void add(Map<String, long[]> ticks, String stat) {
        String name =
                stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("\\d+", "#");
        String[] afterName = stat.substring(stat.lastIndexOf(')') + 2).strip().split("\\s+");
        long[] sum = ticks.computeIfAbsent(name, n -> new long[2]);
        sum[0] += Long.parseLong(afterName[14 - 3]);
        sum[1] += Long.parseLong(afterName[15 - 3]);
    }

    /** What each name spent since {@code earlier}; a thread that ended in between is missing from both. */
    ThreadCpu since(ThreadCpu earlier) {
        Map<String, long[]> spent = new HashMap<>();
        ticks.forEach((name, now) -> {
            long[] before = earlier.ticks.getOrDefault(name, new long[2]);
            spent.put(name, new long[] {now[0] - before[0], now[1] - before[1]});
        });
        return new ThreadCpu(spent);
    }

    /** A table, largest first, with the process's own total (threads that ended in the window are only in it). */
    List<String> table(double processSeconds) {
        List<String> lines = new ArrayList<>();
        lines.add("| thread (digits dropped) | user s | system s |");
        lines.add("|---|---|---|");
        long[] all = new long[2];
        ticks.entrySet().stream()
                .filter(e -> e.getValue()[0] + e.getValue()[1] > 0)
                .sorted((a, b) -> Long.compare(b.getValue()[0] + b.getValue()[1], a.getValue()[0] + a.getValue()[1]))
                .forEach(e -> {
                    all[0] += e.getValue()[0];
                    all[1] += e.getValue()[1];
                    lines.add("| " + e.getKey() + " | " + seconds(e.getValue()[0]) + " | " + seconds(e.getValue()[1])
                            + " |");
                });
        lines.add("| all threads listed | " + seconds(all[0]) + " | " + seconds(all[1]) + " |");
        lines.add("| the process (utime + stime) | " + String.format(Locale.ROOT, "%.2f", processSeconds) + " | |");
        return lines;
    }

    void write(Path file, double processSeconds) {
        try {
            Files.write(file, table(processSeconds));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String seconds(long ticks) {
        return String.format(Locale.ROOT, "%.2f", ticks / (double) ProcessUsage.CLOCK_TICKS_PER_SECOND);
    }
}
