package io.etcdoperator.localkube;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalProcessTest {

    @TempDir
    Path dir;

    /** The message keeps why a process died at start, for when its log file went with a test's temporary dir. */
    @Test
    void anEarlyExitQuotesTheEndOfTheLog() {
        Path log = dir.resolve("logs/kube-controller-manager.log");
        try (LocalProcess process = LocalProcess.start(
                "kube-controller-manager",
                List.of(
                        "sh",
                        "-c",
                        "echo starting; echo 'listen tcp 127.0.0.1:10257: bind: address already in use' >&2;"
                                + " exit 1"),
                dir,
                log)) {
            IllegalStateException exited = Eventually.await("the process to exit", Duration.ofSeconds(10), () -> {
                try {
                    process.ensureAlive();
                    return null;
                } catch (IllegalStateException e) {
                    return e;
                }
            });

            assertThat(exited)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("kube-controller-manager exited with code 1")
                    .hasMessageContaining(log.toString())
                    .hasMessageContaining("bind: address already in use");
        }
    }

    @Test
    void theTailIsTheLastLines() throws IOException {
        Path log = Files.write(
                dir.resolve("long.log"),
                IntStream.rangeClosed(1, 1000).mapToObj(i -> "line " + i).toList());

        String tail = LocalProcess.tail(log, 3);

        assertThat(tail).endsWith(":\nline 998\nline 999\nline 1000").doesNotContain("line 997");
        assertThat(LocalProcess.tail(dir.resolve("absent.log"), 3)).isEmpty();
        assertThat(LocalProcess.tail(Files.createFile(dir.resolve("empty.log")), 3))
                .isEmpty();
    }
}
