package io.etcdoperator.localkube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeconfigTest {

    @TempDir
    Path dir;

    @Test
    void fabric8ReadsServerCaAndToken() throws Exception {
        Path certificate = Files.writeString(dir.resolve("apiserver.crt"), "-----BEGIN CERTIFICATE-----\n...\n");
        Kubeconfig kubeconfig = Kubeconfig.write(
                dir.resolve("kubeconfig"), URI.create("https://127.0.0.1:6443"), certificate, "not-a-real-token");

        Config config = Config.fromKubeconfig(kubeconfig.file().toFile());

        assertThat(config.getMasterUrl()).startsWith("https://127.0.0.1:6443");
        assertThat(config.getAutoOAuthToken()).isEqualTo("not-a-real-token");
        assertThat(Base64.getDecoder().decode(config.getCaCertData())).isEqualTo(Files.readAllBytes(certificate));
        assertThat(config.getNamespace()).isEqualTo("default");
    }

    @Test
    void isReadableByItsOwnerOnly() throws Exception {
        Path certificate = Files.writeString(dir.resolve("apiserver.crt"), "pem");
        Kubeconfig kubeconfig = Kubeconfig.write(
                dir.resolve("kubeconfig"), URI.create("https://127.0.0.1:1"), certificate, "not-a-real-token");

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(kubeconfig.file())))
                .isEqualTo("rw-------");
    }
}
