package io.etcdoperator.localkube.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Resolves a name in a fresh JVM with the given flags, as a host operator would, and returns what it printed. */
public final class FreshJvmLookup {

    private FreshJvmLookup() {}

    public static String resolve(Path dir, List<String> jvmFlags, String name)
            throws IOException, InterruptedException {
        Path source = dir.resolve("Resolve.java");
        Files.writeString(source, """
                public class Resolve {
                    public static void main(String[] args) throws Exception {
                        System.out.print(java.net.InetAddress.getByName(args[0]).getHostAddress());
                    }
                }
                """);
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmFlags);
        command.addAll(List.of(source.toString(), name));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes()).strip();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return output;
    }
}
