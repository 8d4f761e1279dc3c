package io.etcdoperator.localkube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeBinariesTest {

    @TempDir
    Path dir;

    @Test
    void missingBinariesNameTheProvisioningScript() {
        assertThatThrownBy(() -> KubeBinaries.in(dir, dir.resolve("no-etcd")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("kube-apiserver")
                .hasMessageContaining("hack/kube-binaries.sh");
    }

    @Test
    void prefersAnEtcdNextToTheKubeBinaries() throws IOException {
        Path apiServer = executable("kube-apiserver");
        Path controllerManager = executable("kube-controller-manager");
        Path etcd = executable("etcd");

        assertThat(KubeBinaries.in(dir, dir.resolve("no-etcd")))
                .isEqualTo(new KubeBinaries(apiServer, controllerManager, etcd));
    }

    @Test
    void fallsBackToTheSystemEtcd() throws IOException {
        executable("kube-apiserver");
        executable("kube-controller-manager");
        Path systemEtcd = Files.createDirectories(dir.resolve("usr/bin")).resolve("etcd");
        Files.createFile(
                systemEtcd, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));

        assertThat(KubeBinaries.in(dir, systemEtcd).etcd()).isEqualTo(systemEtcd);
    }

    @Test
    void cacheDirIsTheOneTheProvisioningScriptFills() {
        assertThat(KubeBinaries.cacheDir()).endsWithRaw(Path.of("etcd-operator", "kube-1.20.2"));
    }

    private Path executable(String name) throws IOException {
        return Files.createFile(
                dir.resolve(name), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
}
