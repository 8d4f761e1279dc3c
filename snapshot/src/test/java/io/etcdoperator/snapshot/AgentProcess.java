package io.etcdoperator.snapshot;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The agent CLI in a JVM of its own with a small heap, so its memory can be measured: the peak resident set
 * (VmHWM in /proc) is sampled until the process ends.
 */
record AgentProcess(int exitCode, String output, Duration elapsed, long peakRssBytes) {

    static AgentProcess run(String maxHeap, Map<String, String> env, List<String> args)
            throws IOException, InterruptedException {
        String property = System.getProperty("agent.classpath", "");
        String[] parts = property.split(File.pathSeparator, 2);
        if (parts.length != 2) {
            throw new AssertionError("system property agent.classpath not set (run through mvn verify)");
        }
        String classpath = parts[0]
                + File.pathSeparator
                + Files.readString(Path.of(parts[1])).strip();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + maxHeap,
                "-cp",
                classpath,
                "io.etcdoperator.snapshot.cli.AgentCommand"));
        command.addAll(args);
        Path out = Files.createTempFile("agent", ".out");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
        builder.environment().putAll(env);
        long start = System.nanoTime();
        Process process = builder.start();
        long peak = 0;
        Path status = Path.of("/proc", Long.toString(process.pid()), "status");
        while (!process.waitFor(100, TimeUnit.MILLISECONDS)) {
            peak = Math.max(peak, vmHwm(status));
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        String output = Files.readString(out, StandardCharsets.UTF_8);
        Files.delete(out);
        return new AgentProcess(process.exitValue(), output, elapsed, peak);
    }

    /** The JSON result: the last line of the output. */
    String json() {
        String[] lines = output.strip().split("\n");
        return lines[lines.length - 1];
    }

    private static long vmHwm(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // the process ended between the check and the read
        }
        return 0;
    }
}
