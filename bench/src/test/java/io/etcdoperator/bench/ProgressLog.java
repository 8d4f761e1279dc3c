package io.etcdoperator.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;

/** A bench's timestamped progress lines, on stdout and appended to a file that hack/bench.sh tails. */
final class ProgressLog {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final Path file;
    private final String source;

    ProgressLog(Path file, String source) {
        this.file = file;
        this.source = source;
    }

    /** The file named by the bench.progress property (target/bench/progress.log by default). */
    static ProgressLog fromProperty(String source) {
        return new ProgressLog(Path.of(System.getProperty("bench.progress", "target/bench/progress.log")), source);
    }

    void say(String line) {
        String stamped = CLOCK.format(LocalTime.now()) + " " + source + ": " + line + "\n";
        System.out.print(stamped);
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, stamped, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
