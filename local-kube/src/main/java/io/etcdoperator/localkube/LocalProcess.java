package io.etcdoperator.localkube;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One control-plane process started by us, with stdout and stderr going to its own log file. */
final class LocalProcess implements AutoCloseable {

    private static final Duration GRACE = Duration.ofSeconds(10);

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

    /** Throws if the process has exited, naming its exit code and log file. */
    void ensureAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(name + " exited with code " + process.exitValue() + "; see " + log);
        }
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
