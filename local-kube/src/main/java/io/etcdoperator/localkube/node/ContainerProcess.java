package io.etcdoperator.localkube.node;

import io.etcdoperator.localkube.network.HostCommand;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/** One run of a container: a host process (and its children) with stdout and stderr in one log file. */
final class ContainerProcess {

    private static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    private final Process process;
    private final Instant startedAt;
    private final Path log;

    private ContainerProcess(Process process, Instant startedAt, Path log) {
        this.process = process;
        this.startedAt = startedAt;
        this.log = log;
    }

    static ContainerProcess start(List<String> commandLine, Map<String, String> env, Path log) {
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(commandLine)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().clear();
            builder.environment().put("PATH", PATH);
            builder.environment().put("HOME", "/root");
            builder.environment().putAll(env);
            return new ContainerProcess(builder.start(), Instant.now(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + commandLine, e);
        }
    }

    /** Runs {@code cleanup} once the process has exited, however it ended. */
    void afterExit(Runnable cleanup) {
        process.onExit().thenRun(cleanup);
    }

    Instant startedAt() {
        return startedAt;
    }

    Path log() {
        return log;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The exit code once exited; a signal shows as 128 + its number, as with a container runtime. */
    OptionalInt exitCode() {
        return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
    }

    /** SIGTERM to the main process, then SIGKILL to it and its children after {@code grace}. */
    void terminate(Duration grace) {
        List<ProcessHandle> tree = tree();
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            kill();
            Thread.currentThread().interrupt();
        }
        tree.forEach(ProcessHandle::destroyForcibly);
    }

    /** SIGKILL to the process and its children. */
    void kill() {
        List<ProcessHandle> tree = tree();
        tree.forEach(ProcessHandle::destroyForcibly);
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Sends a signal such as STOP or CONT to the process and its children. */
    void signal(String signal) {
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
        tree().forEach(handle -> command.add(Long.toString(handle.pid())));
        HostCommand.attempt(command);
    }

    private List<ProcessHandle> tree() {
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(process.toHandle());
        process.toHandle().descendants().forEach(tree::add);
        return tree;
    }
}
