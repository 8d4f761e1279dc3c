package io.etcdoperator.snapshot;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The etcd releases the snapshot ITs run against, with their restore tool. Binaries come from the system properties
 * failsafe sets from ETCD34_BIN / ETCD35_BIN (hack/etcd-binaries.sh), else from where that script installs them.
 */
enum EtcdRelease {
    V3_4_23("3.4.23", "etcd34.bin", Path.of("/usr/bin"), "etcdctl"),
    V3_5_16("3.5.16", "etcd35.bin", cacheDir().resolve("etcd-3.5.16"), "etcdutl");

    private final String version;
    private final String property;
    private final Path fallback;
    private final String restoreTool;

    EtcdRelease(String version, String property, Path fallback, String restoreTool) {
        this.version = version;
        this.property = property;
        this.fallback = fallback;
        this.restoreTool = restoreTool;
    }

    String version() {
        return version;
    }

    Path etcd() {
        return existing(binDir().resolve("etcd"));
    }

    Path restoreTool() {
        return existing(binDir().resolve(restoreTool));
    }

    private Path binDir() {
        String configured = System.getProperty(property, "");
        return configured.isBlank() || configured.startsWith("${") ? fallback : Path.of(configured);
    }

    private Path existing(Path binary) {
        if (!Files.isExecutable(binary)) {
            throw new AssertionError(binary + " not found for etcd " + version + "; run hack/etcd-binaries.sh and "
                    + "eval \"$(hack/etcd-binaries.sh --env)\" before mvn verify");
        }
        return binary;
    }

    @Override
    public String toString() {
        return "etcd " + version;
    }

    private static Path cacheDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg == null || xdg.isBlank() ? Path.of(System.getProperty("user.home"), ".cache") : Path.of(xdg);
        return base.resolve("etcd-operator");
    }
}
