package io.etcdoperator.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operator's runnable jar started as its own process, as a Deployment would run it: flags, environment, a log
 * file. Ports are chosen by the operator (":0") and read back from its start-up log line.
 */
public final class OperatorProcess implements Operator, AutoCloseable {

    private static final Pattern STARTED = Pattern.compile("metricsPort=(\\d+) probePort=(\\d+)");

    private final Process process;
    private final Path log;
    private int metricsPort;
    private int probePort;

    private OperatorProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    public static Path jar() {
        String jar = System.getProperty("operator.jar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException(
                    "operator jar not found at '" + jar + "': run `mvn package -pl operator` first");
        }
        return Path.of(jar);
    }

    /** The JDK running this test (>= 21, selected by hack/jdk.sh); the operator needs no other. */
    public static Path java() {
        return Path.of(ProcessHandle.current().info().command().orElseThrow());
    }

    public static OperatorProcess start(Path log, Map<String, String> env, List<String> args, List<String> jvmFlags) {
        List<String> command = new ArrayList<>();
        command.add(java().toString());
        command.addAll(jvmFlags);
        command.add("-jar");
        command.add(jar().toString());
        command.addAll(args);
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(env);
            return new OperatorProcess(builder.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the operator: " + command, e);
        }
    }

    /** Waits for the start-up line and remembers the ports it names. */
    public OperatorProcess awaitStarted(Duration timeout) {
        Matcher m = Await.value("operator start-up log line in " + log, timeout, () -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("operator exited with " + process.exitValue() + ": " + logText());
            }
            Matcher matcher = STARTED.matcher(logText());
            return matcher.find() ? Optional.of(matcher) : Optional.empty();
        });
        metricsPort = Integer.parseInt(m.group(1));
        probePort = Integer.parseInt(m.group(2));
        return this;
    }

    @Override
    public HttpResponse<String> get(String path) {
        int port = path.equals("/metrics") ? metricsPort : probePort;
        return OperatorHttp.get(URI.create("http://127.0.0.1:" + port + path));
    }

    @Override
    public String logText() {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM, as the kubelet sends on Pod deletion; returns the exit code. */
    public int terminate(Duration grace) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("operator did not stop within " + grace.toSeconds() + " s of SIGTERM");
        }
        return process.exitValue();
    }

    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("operator still running after " + timeout.toSeconds() + " s");
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
