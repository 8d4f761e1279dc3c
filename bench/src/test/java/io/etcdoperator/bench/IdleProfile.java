package io.etcdoperator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JFR recording of the operator over the idle window ({@code -Dbench.simulated.profile=true}), read back as where
 * its CPU samples were: by the innermost frame, by the innermost frame of our own code, and by thread. Opt-in, since
 * the recording itself costs the operator some CPU in the window it measures.
 */
final class IdleProfile {

    private static final String NAME = "bench-idle";
    private static final String OURS = "io.etcdoperator.";

    private final long pid;

    private IdleProfile(long pid) {
        this.pid = pid;
    }

    /** Starts the recording in the running operator; throws when jcmd cannot attach. */
    static IdleProfile start(long pid) throws IOException, InterruptedException {
        IdleProfile profile = new IdleProfile(pid);
        Jcmd.run(pid, "JFR.start", "name=" + NAME, "settings=profile");
        return profile;
    }

    /** Stops the recording into {@code jfr} and writes the sample tables to {@code report}. */
    void stop(Path jfr, Path report) throws IOException, InterruptedException {
        Files.createDirectories(jfr.toAbsolutePath().getParent());
        Jcmd.run(pid, "JFR.stop", "name=" + NAME, "filename=" + jfr.toAbsolutePath());
        Files.writeString(report, String.join("\n", tables(RecordingFile.readAllEvents(jfr))) + "\n");
    }

    static List<String> tables(List<RecordedEvent> events) {
        Map<String, Long> top = new HashMap<>();
        Map<String, Long> ours = new HashMap<>();
        Map<String, Long> threads = new HashMap<>();
        long samples = 0;
        for (RecordedEvent event : events) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
                continue;
            }
            samples++;
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            top.merge(frames.isEmpty() ? "(no frame)" : method(frames.getFirst()), 1L, Long::sum);
            ours.merge(firstOfOurs(frames), 1L, Long::sum);
            threads.merge(threadGroup(event), 1L, Long::sum);
        }
        List<String> lines = new ArrayList<>();
        lines.add("execution samples: " + samples);
        table(lines, "innermost frame", top, samples);
        table(lines, "innermost frame of io.etcdoperator", ours, samples);
        table(lines, "thread (digits dropped)", threads, samples);
        return lines;
    }

    private static void table(List<String> lines, String title, Map<String, Long> counts, long samples) {
        lines.add("");
        lines.add("## by " + title);
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(30)
                .forEach(e -> lines.add(String.format(
                        "%6d %5.1f%%  %s", e.getValue(), 100.0 * e.getValue() / Math.max(1, samples), e.getKey())));
    }

    private static String firstOfOurs(List<RecordedFrame> frames) {
        return frames.stream()
                .filter(f -> f.getMethod().getType().getName().startsWith(OURS))
                .findFirst()
                .map(IdleProfile::method)
                .orElse("(none of ours)");
    }

    private static String method(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    private static String threadGroup(RecordedEvent event) {
        var thread = event.getThread("sampledThread");
        String name = thread == null ? "(unknown)" : String.valueOf(thread.getJavaName());
        return name.replaceAll("[0-9]+", "#");
    }
}
