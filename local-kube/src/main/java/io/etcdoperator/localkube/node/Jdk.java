package io.etcdoperator.localkube.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Finds a {@code java} of version 21 or newer: the running one if it qualifies, else the newest in /usr/lib/jvm. */
final class Jdk {

    private static final Pattern VERSION = Pattern.compile("(?:jdk|java|temurin)-(\\d+)");

    private Jdk() {}

    static Path java() {
        if (Runtime.version().feature() >= 21) {
            return Path.of(System.getProperty("java.home"), "bin", "java");
        }
        try (Stream<Path> jvms = Files.list(Path.of("/usr/lib/jvm"))) {
            return jvms.filter(dir -> feature(dir).orElse(0) >= 21)
                    .max(Comparator.comparing(dir -> feature(dir).orElse(0)))
                    .map(dir -> dir.resolve("bin/java"))
                    .orElseThrow(() -> new IllegalStateException("no JDK >= 21 in /usr/lib/jvm"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list /usr/lib/jvm", e);
        }
    }

    private static Optional<Integer> feature(Path dir) {
        Matcher matcher = VERSION.matcher(dir.getFileName().toString());
        return matcher.find() ? Optional.of(Integer.parseInt(matcher.group(1))) : Optional.empty();
    }
}
