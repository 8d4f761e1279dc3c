package io.etcdoperator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code jcmd <pid> ...} from this JVM's JDK, bounded: an attach that never answers must not hang the bench. */
final class Jcmd {

    private Jcmd() {}

    /** The command's output; an IOException when it fails or does not answer in 2 minutes. */
    static String run(long pid, String... command) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid)));
        args.addAll(List.of(command));
        Path out = Files.createTempFile("jcmd", ".txt");
        try {
            Process process = new ProcessBuilder(args)
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException("jcmd " + String.join(" ", command) + " did not answer in 2 minutes");
            }
            String said = Files.readString(out);
            if (process.exitValue() != 0) {
                throw new IOException("jcmd " + String.join(" ", command) + " failed: " + said.strip());
            }
            return said;
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
