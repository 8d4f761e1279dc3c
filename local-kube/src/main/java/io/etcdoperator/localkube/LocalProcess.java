package io.etcdoperator.localkube;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One control-plane process started by us, with stdout and stderr going to its own log file. */
final class LocalProcess implements AutoCloseable {

    private static final Duration GRACE = Duration.ofSeconds(10);
    private static final int TAIL_LINES = 20;
    private static final int TAIL_BYTES = 16 * 1024;

    private final String name;
    private final Process process;
    private final Path log;

    private LocalProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    static LocalProcess start(String name, List<String> command, Path workDir, Path log) {
        try {
            Files.createDirectories(log.getParent());
            Process process = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            return new LocalProcess(name, process, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + " (" + command.getFirst() + ")", e);
        }
    }

    String name() {
        return name;
    }

    Path log() {
        return log;
    }

    ProcessHandle handle() {
        return process.toHandle();
    }

    /**
     * Throws if the process has exited, naming its exit code and log file, and quoting the log's last lines: the
     * message keeps the cause after the work dir is gone (a test's temporary directory, say).
     */
    void ensureAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(
                    name + " exited with code " + process.exitValue() + "; see " + log + tail(log, TAIL_LINES));
        }
    }

    /**
     * The last {@code lines} lines of {@code file} (read from its last {@value #TAIL_BYTES} bytes) after a header,
     * for an exception message; empty if the file is empty or unreadable.
     */
    static String tail(Path file, int lines) {
        String text;
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            long size = channel.size();
            ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(size, TAIL_BYTES));
            channel.position(size - buffer.capacity());
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // until the buffer is full
            }
            text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
        } catch (IOException unreadable) {
            return "";
        }
        List<String> all = text.lines().toList();
        if (all.isEmpty()) {
            return "";
        }
        List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
        return "; its last " + last.size() + " lines:\n" + String.join("\n", last);
    }

    /** Sends SIGTERM to our PID, and SIGKILL if it has not exited after a grace period. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ", log " + log + ")";
    }
}
