package io.etcdoperator.chart;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's {@code /usr/bin/docker-registry} (distribution 2.8) as a child process: plain HTTP on a port of
 * 127.0.0.1 that it picks itself, storage and log in a directory of its own. The package's systemd service is not
 * used.
 */
final class RegistryProcess implements AutoCloseable {

    static final Path BINARY = Path.of("/usr/bin/docker-registry");
    // Port 0 avoids a race for a free port; the registry logs the address it got at info level.
    private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");

    private final Process process;
    private final int port;
    private final Path log;

    private RegistryProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    static RegistryProcess start(Path dir) throws IOException, InterruptedException {
        if (!Files.isExecutable(BINARY)) {
            throw new AssertionError(BINARY + " is missing: apt-get install docker-registry (hack/test.sh does)");
        }
        Files.createDirectories(dir.resolve("storage"));
        Path config = dir.resolve("config.yml");
        Files.writeString(config, """
        version: 0.1
        log:
          level: info
        storage:
          filesystem:
            rootdirectory: %s
        http:
          addr: 127.0.0.1:0
        """.formatted(dir.resolve("storage")));
        Path log = dir.resolve("registry.log");
        Process process = new ProcessBuilder(BINARY.toString(), "serve", config.toString())
                .redirectErrorStream(true)
                .start();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread.ofVirtual().name("registry-log").start(() -> copyLog(process, log, port));
        try {
            return new RegistryProcess(process, port.get(30, TimeUnit.SECONDS), log);
        } catch (ExecutionException | TimeoutException e) {
            process.destroy();
            throw new AssertionError("docker-registry did not say where it listens; see " + log, e);
        }
    }

    /** Copies the registry's output to its log for as long as it runs, completing {@code port} from the line. */
    private static void copyLog(Process process, Path log, CompletableFuture<Integer> port) {
        try (var reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                Writer out = Files.newBufferedWriter(log)) {
            for (String line; (line = reader.readLine()) != null; ) {
                out.write(line + "\n");
                out.flush();
                Matcher listening = LISTENING.matcher(line);
                if (!port.isDone() && listening.find()) {
                    port.complete(Integer.parseInt(listening.group(1)));
                }
            }
        } catch (IOException e) {
            port.completeExceptionally(e);
        }
        port.completeExceptionally(new IllegalStateException("docker-registry exited"));
    }

    /** host:port, as image references and oci:// chart references name it. */
    String address() {
        return "127.0.0.1:" + port;
    }

    Path log() {
        return log;
    }

    /** Stops the registry by its own PID (SIGTERM, then SIGKILL if it lingers). */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
