package io.etcdoperator.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmark's Markdown table with the facts that explain its numbers (cores, load, memory). Rewritten after
 * every run, so an interrupted benchmark still leaves what it measured.
 */
final class BenchReport {

    private final Path file;
    private final String settings;
    private final String loadAtStart = loadAverage();
    private final List<Measurement> measurements = new ArrayList<>();
    private int runsDone;

    BenchReport(Path file, String settings) {
        this.file = file;
        this.settings = settings;
    }

    Measurement measurement(String name, String unit) {
        Measurement m = new Measurement(name, unit);
        measurements.add(m);
        return m;
    }

    void runDone() {
        runsDone++;
        write();
    }

    String text() {
        StringBuilder out = new StringBuilder();
        out.append("Operator benchmark on local Kubernetes, ")
                .append(OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS))
                .append('\n');
        out.append("runs completed: ")
                .append(runsDone)
                .append("; ")
                .append(settings)
                .append('\n');
        out.append("machine: ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores, ")
                .append(memTotalGib())
                .append(" GiB RAM; load average (1/5/15 min) at start ")
                .append(loadAtStart)
                .append(", now ")
                .append(loadAverage())
                .append("\n\n");
        out.append("| measurement | runs | median | min–max |\n|---|---|---|---|\n");
        measurements.forEach(m -> out.append(m.row()).append('\n'));
        return out.toString();
    }

    void write() {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String loadAverage() {
        String[] fields = proc("loadavg").split("\\s+");
        return fields.length >= 3 ? fields[0] + "/" + fields[1] + "/" + fields[2] : "?";
    }

    private static String memTotalGib() {
        return proc("meminfo")
                .lines()
                .filter(l -> l.startsWith("MemTotal:"))
                .findFirst()
                .map(l -> String.valueOf(Math.round(Long.parseLong(l.replaceAll("\\D", "")) / 1048576.0)))
                .orElse("?");
    }

    private static String proc(String name) {
        try {
            return Files.readString(Path.of("/proc", name));
        } catch (IOException e) {
            return "";
        }
    }
}
