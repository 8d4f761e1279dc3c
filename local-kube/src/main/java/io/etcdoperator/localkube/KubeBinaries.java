package io.etcdoperator.localkube;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The executables of a local control plane. kube-apiserver and kube-controller-manager come from the directory named
 * by the {@code KUBE_BIN} system property or environment variable, else from the cache that
 * {@code hack/kube-binaries.sh} fills. etcd comes from that directory if it holds one, else from {@code /usr/bin/etcd}.
 */
public record KubeBinaries(Path apiServer, Path controllerManager, Path etcd) {

    public static final String KUBE_BIN = "KUBE_BIN";
    static final String KUBE_VERSION = "1.20.2";
    static final Path SYSTEM_ETCD = Path.of("/usr/bin/etcd");
    private static final String PROVISION_HINT = "run hack/kube-binaries.sh to build and cache it, or set " + KUBE_BIN;

    /** Locates the binaries, or throws {@link IllegalStateException} naming {@code hack/kube-binaries.sh}. */
    public static KubeBinaries locate() {
        return in(configuredDir().orElseGet(KubeBinaries::cacheDir), SYSTEM_ETCD);
    }

    static KubeBinaries in(Path dir, Path fallbackEtcd) {
        Path ownEtcd = dir.resolve("etcd");
        return new KubeBinaries(
                executable(dir.resolve("kube-apiserver")),
                executable(dir.resolve("kube-controller-manager")),
                executable(Files.isExecutable(ownEtcd) ? ownEtcd : fallbackEtcd));
    }

    static Path cacheDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path cache = xdg == null || xdg.isBlank() ? Path.of(System.getProperty("user.home"), ".cache") : Path.of(xdg);
        return cache.resolve("etcd-operator").resolve("kube-" + KUBE_VERSION);
    }

    private static Optional<Path> configuredDir() {
        return Optional.ofNullable(System.getProperty(KUBE_BIN))
                .or(() -> Optional.ofNullable(System.getenv(KUBE_BIN)))
                .filter(dir -> !dir.isBlank())
                .map(Path::of);
    }

    private static Path executable(Path file) {
        if (!Files.isExecutable(file)) {
            throw new IllegalStateException(
                    file.getFileName() + " is missing: no executable " + file + "; " + PROVISION_HINT);
        }
        return file;
    }
}
