package io.etcdoperator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdleProfileTest {

    @Test
    void aBusyMethodOfOursLeadsTheTables(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("busy.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            recording.start();
            long until = System.nanoTime() + Duration.ofMillis(800).toNanos();
            double sink = 0;
            while (System.nanoTime() < until) {
                sink += spin(sink);
            }
            recording.stop();
            recording.dump(jfr);
            assertThat(sink).isNotNaN();
        }

        List<String> lines = IdleProfile.tables(RecordingFile.readAllEvents(jfr));

        assertThat(lines.getFirst()).startsWith("execution samples: ").isNotEqualTo("execution samples: 0");
        int ours = lines.indexOf("## by innermost frame of io.etcdoperator");
        assertThat(ours).isPositive();
        assertThat(lines.get(ours + 1)).contains("io.etcdoperator.bench.IdleProfileTest.");
    }

    private static double spin(double seed) {
        double x = seed;
        for (int i = 0; i < 10_000; i++) {
            x = Math.sin(x + i);
        }
        return x;
    }
}
