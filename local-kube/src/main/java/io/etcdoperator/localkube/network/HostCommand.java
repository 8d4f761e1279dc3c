package io.etcdoperator.localkube.network;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A short-lived host command such as {@code ip} or {@code mount}, run to completion. */
public final class HostCommand {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private HostCommand() {}

    /** Runs the command and returns its stdout; throws with its output if it fails. */
    public static String run(String... command) {
        return run(List.of(command));
    }

    public static String run(List<String> command) {
        return run(command, Map.of());
    }

    /** Runs with extra environment variables, which (unlike arguments) other users cannot read. */
    public static String run(List<String> command, Map<String, String> env) {
        return run(command, env, TIMEOUT);
    }

    /** As above, for a command that may take longer than the usual 30 s (an image pull). */
    public static String run(List<String> command, Map<String, String> env, Duration timeout) {
        Result result = attempt(command, env, timeout);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed with exit code " + result.exitCode()
                    + ": " + result.output().strip());
        }
        return result.output();
    }

    /** Runs the command and reports its exit code instead of throwing; for best-effort cleanup. */
    public static Result attempt(List<String> command) {
        return attempt(command, Map.of(), TIMEOUT);
    }

    private static Result attempt(List<String> command, Map<String, String> env, Duration timeout) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(env);
            Process process = builder.start();
            process.getOutputStream().close();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                return new Result(-1, "timed out");
            }
            return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.getFirst(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }

    public record Result(int exitCode, String output) {
        public boolean succeeded() {
            return exitCode == 0;
        }
    }
}
