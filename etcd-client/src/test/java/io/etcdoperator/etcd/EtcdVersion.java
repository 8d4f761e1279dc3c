package io.etcdoperator.etcd;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The etcd releases the integration tests run against, oldest first (3.5.30 is the newest, the target of the rolling
 * upgrade tests). Binaries come from the system property that failsafe sets from ETCD34_BIN / ETCD35_BIN /
 * ETCD3530_BIN, else from where hack/etcd-binaries.sh puts them; a missing binary fails the test.
 */
public enum EtcdVersion {
    V3_4_23("3.4.23", "etcd34.bin", Path.of("/usr/bin")),
    V3_5_16("3.5.16", "etcd35.bin", cacheDir().resolve("etcd-3.5.16")),
    V3_5_30("3.5.30", "etcd3530.bin", cacheDir().resolve("etcd-3.5.30"));

    private static final Map<EtcdVersion, Path> VERIFIED = new ConcurrentHashMap<>();

    private final String release;
    private final String property;
    private final Path fallback;

    EtcdVersion(String release, String property, Path fallback) {
        this.release = release;
        this.property = property;
        this.fallback = fallback;
    }

    public String release() {
        return release;
    }

    /** The etcd binary, checked once to exist and to report this release. */
    public Path etcd() {
        return VERIFIED.computeIfAbsent(this, v -> v.verify(binDir().resolve("etcd")));
    }

    Path binDir() {
        String configured = System.getProperty(property, "");
        // An unset ${env.ETCD3x_BIN} reaches us unexpanded; treat it as unset.
        return configured.isBlank() || configured.startsWith("${") ? fallback : Path.of(configured);
    }

    @Override
    public String toString() {
        return "etcd " + release;
    }

    private Path verify(Path etcd) {
        if (!Files.isExecutable(etcd)) {
            throw new AssertionError("etcd " + release + " not found at " + etcd + " (system property " + property
                    + "); run hack/etcd-binaries.sh, then eval \"$(hack/etcd-binaries.sh --env)\" before mvn verify");
        }
        String reported = versionOf(etcd);
        if (!reported.contains("etcd Version: " + release)) {
            throw new AssertionError(etcd + " is not etcd " + release + ": " + reported.strip());
        }
        return etcd;
    }

    private static String versionOf(Path etcd) {
        try {
            Process process = new ProcessBuilder(etcd.toString(), "--version")
                    .redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            return output;
        } catch (IOException e) {
            throw new AssertionError("cannot run " + etcd + " --version", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + etcd + " --version", e);
        }
    }

    private static Path cacheDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg == null || xdg.isBlank() ? Path.of(System.getProperty("user.home"), ".cache") : Path.of(xdg);
        return base.resolve("etcd-operator");
    }
}
