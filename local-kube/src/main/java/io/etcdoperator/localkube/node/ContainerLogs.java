package io.etcdoperator.localkube.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Log files of a Pod's containers: {@code logs/<container>/<run>.log}, one file per run, numbered from 0. */
final class ContainerLogs {

    private ContainerLogs() {}

    static Path next(Path podDir, String container) {
        return podDir.resolve("logs")
                .resolve(container)
                .resolve(runs(podDir, container).size() + ".log");
    }

    static Optional<Path> find(Path podDir, String container, boolean previous) {
        List<Path> runs = runs(podDir, container);
        int index = runs.size() - (previous ? 2 : 1);
        return index >= 0 ? Optional.of(runs.get(index)) : Optional.empty();
    }

    private static List<Path> runs(Path podDir, String container) {
        Path dir = podDir.resolve("logs").resolve(container);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(file -> file.getFileName().toString().matches("\\d+\\.log"))
                    .sorted(Comparator.comparingInt(ContainerLogs::run))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static int run(Path file) {
        String name = file.getFileName().toString();
        return Integer.parseInt(name.substring(0, name.length() - ".log".length()));
    }
}
