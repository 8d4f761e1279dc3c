package io.etcdoperator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchReportTest {

    @Test
    void writesSettingsMachineFactsAndOneRowPerMeasurementInOrder(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bench/table.md");
        BenchReport report = new BenchReport(file, "runs of something");
        report.measurement("first", "s").add(1.5);
        report.measurement("second", "MiB");

        report.runDone();

        String text = Files.readString(file);
        assertThat(text)
                .contains("runs completed: 1; runs of something")
                .contains(Runtime.getRuntime().availableProcessors() + " cores")
                .containsSubsequence(
                        "| measurement | runs | median | min–max |",
                        "| first | 1 | 1.50 s | 1.50–1.50 s |",
                        "| second | 0 | – | – |");
    }
}
