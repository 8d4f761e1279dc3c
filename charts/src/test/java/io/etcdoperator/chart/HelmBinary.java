package io.etcdoperator.chart;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The Helm binary of hack/helm.sh (Helm 4), the same one the sandbox, the release and the e2e install with, so the
 * chart is linted, packaged and rendered by the Helm major a user runs. Its cache and config stay in target/.
 */
final class HelmBinary {

    private static final Path HOME = ChartTest.MODULE.toAbsolutePath().resolve("target/helm-home");
    private static String binary;

    private HelmBinary() {}

    /** `helm template NAME CHART -n NAMESPACE --set k=v…` without the `helm test` hooks, as `helm install` applies. */
    static String template(Path chart, String name, String namespace, Map<String, Object> values) {
        List<String> args =
                new ArrayList<>(List.of("template", name, chart.toString(), "--namespace", namespace, "--skip-tests"));
        values.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> args.addAll(List.of("--set", e.getKey() + "=" + e.getValue())));
        return run(args);
    }

    /** Runs helm with {@code args}; its stdout, or an IllegalStateException with what it printed when it fails. */
    static String run(List<String> args) {
        List<String> command = new ArrayList<>(List.of(path()));
        command.addAll(args);
        return exec(
                command,
                Map.of(
                        "HELM_CACHE_HOME", HOME.resolve("cache").toString(),
                        "HELM_CONFIG_HOME", HOME.resolve("config").toString(),
                        "HELM_DATA_HOME", HOME.resolve("data").toString()));
    }

    /** The helm binary hack/helm.sh provides (fetched on first use), for tests that run helm with an env of theirs. */
    static synchronized String path() {
        if (binary == null) {
            binary = exec(List.of(ChartTest.ROOT.resolve("hack/helm.sh").toString(), "--path"), Map.of())
                    .lines()
                    .reduce((first, last) -> last)
                    .orElseThrow();
        }
        return binary;
    }

    private static String exec(List<String> command, Map<String, String> env) {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(env);
        try {
            Process process = builder.start();
            CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
            String stdout = read(process.getInputStream());
            if (process.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + stderr.join() + stdout);
            }
            return stdout;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
