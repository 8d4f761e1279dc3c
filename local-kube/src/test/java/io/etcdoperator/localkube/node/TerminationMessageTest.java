package io.etcdoperator.localkube.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TerminationMessageTest {

    @TempDir
    Path pod;

    private final Container fallback = new ContainerBuilder()
            .withName("agent")
            .withTerminationMessagePath(null)
            .withTerminationMessagePolicy("FallbackToLogsOnError")
            .build();

    @Test
    void theFileIsBoundAtTheContainersPathAndEmptiedForEachRun() throws IOException {
        Container custom = new ContainerBuilder(fallback)
                .withTerminationMessagePath(pod.resolve("t/msg").toString())
                .build();

        ContainerLaunch.Mount mount = TerminationMessage.prepare(pod, custom);
        Files.writeString(mount.source(), "first run");
        ContainerLaunch.Mount again = TerminationMessage.prepare(pod, custom);

        assertThat(mount.target()).isEqualTo(pod.resolve("t/msg")).exists();
        assertThat(mount.readOnly()).isFalse();
        assertThat(again.source()).isEqualTo(mount.source()).isEmptyFile();
    }

    @Test
    void theFileWinsOverTheLogAndIsCappedAt4096Bytes() throws IOException {
        Path log = Files.writeString(pod.resolve("0.log"), "log line\n");
        Path file = TerminationMessage.prepare(pod, withPath(fallback)).source();
        Files.writeString(file, "x".repeat(5000));

        assertThat(TerminationMessage.read(pod, fallback, 1, Optional.of(log))).hasSize(4096);
    }

    @Test
    void theLogTailIsUsedOnlyForAFailedSilentRunWithTheFallbackPolicy() throws IOException {
        Path log = Files.writeString(pod.resolve("0.log"), "starting\nboom\n");
        TerminationMessage.prepare(pod, withPath(fallback));
        Container plain = new ContainerBuilder(fallback)
                .withTerminationMessagePolicy("File")
                .build();

        assertThat(TerminationMessage.read(pod, fallback, 1, Optional.of(log))).isEqualTo("starting\nboom");
        assertThat(TerminationMessage.read(pod, fallback, 0, Optional.of(log))).isNull();
        assertThat(TerminationMessage.read(pod, plain, 1, Optional.of(log))).isNull();
    }

    @Test
    void theLogTailKeepsTheLast80LinesAndAtMost2048Bytes() throws IOException {
        String lines = IntStream.range(0, 200).mapToObj(i -> "line " + i).collect(Collectors.joining("\n"));
        Path log = Files.writeString(pod.resolve("0.log"), lines);
        Path longLines = Files.writeString(pod.resolve("1.log"), ("y".repeat(100) + "\n").repeat(50) + "end");

        assertThat(TerminationMessage.tail(log))
                .startsWith("line 120\n")
                .endsWith("line 199")
                .hasLineCount(80);
        assertThat(TerminationMessage.tail(longLines)).hasSize(2048).endsWith("\nend");
    }

    /** Keeps the test away from the host's /dev/termination-log. */
    private Container withPath(Container container) {
        return new ContainerBuilder(container)
                .withTerminationMessagePath(pod.resolve("termination-target").toString())
                .build();
    }
}
