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
 * User and system CPU of each thread of a Linux process (/proc/&lt;pid&gt;/task/&lt;tid&gt;/stat). It sees what a
 * JFR profile cannot: the kernel's share of socket calls, the VM thread (the serial collector and other safepoint
 * work), the compiler and JFR itself. The kernel keeps the first 15 characters of a thread's name.
 *
 * @param ticks thread id to its name (digits as #) and {user, system} clock ticks since it started
 */
record ThreadCpu(Map<String, Spent> ticks) {

    record Spent(String name, long user, long system) {}

    static ThreadCpu of(long pid) {
        Map<String, Spent> ticks = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            tasks.forEach(task -> read(task.resolve("stat"))
                    .ifPresent(stat -> ticks.put(task.getFileName().toString(), parse(stat))));
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

    /** One task's stat line: its name between the parentheses, then its ticks as a process's are read. */
    static Spent parse(String stat) {
        String name =
                stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("\\d+", "#");
        long[] ticks = ProcessUsage.userAndSystemTicks(stat);
        return new Spent(name, ticks[0], ticks[1]);
    }

    /**
     * What each thread alive now spent since {@code earlier} (one started since counts from 0), by name. A thread
     * that ended in between is in neither: the table's last two lines show how much that was.
     */
    Map<String, long[]> since(ThreadCpu earlier) {
        Map<String, long[]> byName = new HashMap<>();
        ticks.forEach((tid, now) -> {
            Spent before = earlier.ticks.getOrDefault(tid, new Spent(now.name(), 0, 0));
            long[] sum = byName.computeIfAbsent(now.name(), n -> new long[2]);
            sum[0] += now.user() - before.user();
            sum[1] += now.system() - before.system();
        });
        return byName;
    }

    /** A table, largest first, with the process's own total (threads that ended in the window are only in it). */
    static List<String> table(Map<String, long[]> spent, double processSeconds) {
        List<String> lines = new ArrayList<>();
        lines.add("| thread (first 15 characters, digits as #) | user s | system s |");
        lines.add("|---|---|---|");
        long[] all = new long[2];
        spent.entrySet().stream()
                .filter(e -> e.getValue()[0] + e.getValue()[1] > 0)
                .sorted((a, b) -> Long.compare(b.getValue()[0] + b.getValue()[1], a.getValue()[0] + a.getValue()[1]))
                .forEach(e -> {
                    all[0] += e.getValue()[0];
                    all[1] += e.getValue()[1];
                    lines.add("| " + e.getKey() + " | " + seconds(e.getValue()[0]) + " | " + seconds(e.getValue()[1])
                            + " |");
                });
        lines.add("| threads alive at the end | " + seconds(all[0]) + " | " + seconds(all[1]) + " |");
        lines.add("| the process (utime + stime, ended threads included) | "
                + String.format(Locale.ROOT, "%.2f", processSeconds) + " | |");
        return lines;
    }

    void writeSince(ThreadCpu earlier, Path file, double processSeconds) {
        try {
            Files.write(file, table(since(earlier), processSeconds));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String seconds(long ticks) {
        return String.format(Locale.ROOT, "%.2f", ticks / (double) ProcessUsage.CLOCK_TICKS_PER_SECOND);
    }
}
