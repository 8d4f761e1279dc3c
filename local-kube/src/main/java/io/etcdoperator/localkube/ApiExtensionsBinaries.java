package io.etcdoperator.localkube;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The executables of a Kubernetes 1.36 apiextensions-apiserver and its etcd. The server and kubectl come from the
 * directory named by the {@code APIEXT_BIN} system property or environment variable, else from the cache that
 * {@code hack/apiext-binaries.sh} fills. etcd is 3.5.30 ({@code ETCD3530_BIN} / {@code etcd3530.bin}, else the
 * cache of {@code hack/etcd-binaries.sh}).
 */
public record ApiExtensionsBinaries(Path apiServer, Path kubectl, Path etcd) {

    public static final String APIEXT_BIN = "APIEXT_BIN";
    static final String VERSION = "1.36.4";
    private static final String PROVISION_HINT =
            "run hack/apiext-binaries.sh to build and cache it, or set " + APIEXT_BIN;

    /** Locates the binaries, or throws {@link IllegalStateException} naming {@code hack/apiext-binaries.sh}. */
    public static ApiExtensionsBinaries locate() {
        Path dir = setting(APIEXT_BIN, APIEXT_BIN).map(Path::of).orElseGet(ApiExtensionsBinaries::cacheDir);
        // 1.36 watches without a resourceVersion need etcd's RequestWatchProgress (3.4.31+, 3.5.13+): 3.4.23 fails them
        Path etcd = setting("etcd3530.bin", "ETCD3530_BIN")
                .map(d -> Path.of(d, "etcd"))
                .or(() -> Optional.of(
                        KubeBinaries.cacheDir().resolveSibling("etcd-3.5.30").resolve("etcd")))
                .filter(Files::isExecutable)
                .orElseThrow(() -> new IllegalStateException("etcd 3.5.30 is missing (the 1.36 server needs etcd "
                        + "3.5.13+ for watches); run hack/etcd-binaries.sh or set ETCD3530_BIN"));
        return new ApiExtensionsBinaries(
                executable(dir.resolve("apiextensions-apiserver")),
                executable(dir.resolve("kubectl")),
                executable(etcd));
    }

    static Path cacheDir() {
        return KubeBinaries.cacheDir().resolveSibling("apiext-" + VERSION);
    }

    private static Optional<String> setting(String property, String env) {
        return Optional.ofNullable(System.getProperty(property))
                .or(() -> Optional.ofNullable(System.getenv(env)))
                .filter(value -> !value.isBlank());
    }

    private static Path executable(Path file) {
        if (!Files.isExecutable(file)) {
            throw new IllegalStateException(
                    file.getFileName() + " is missing: no executable " + file + "; " + PROVISION_HINT);
        }
        return file;
    }
}
