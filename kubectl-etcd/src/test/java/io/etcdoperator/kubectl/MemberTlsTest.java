package io.etcdoperator.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MemberTlsTest {

    @Test
    void noCertFileMeansPlaintext() {
        assertThat(MemberTls.of(pod(List.of("--name=e-0", "--listen-client-urls=http://0.0.0.0:2379"))))
                .isEmpty();
    }

    @Test
    void serverTlsUsesTheSecretMountedWhereTheCertificateIs() {
        Optional<MemberTls> tls = MemberTls.of(pod(List.of(
                "--cert-file=/etc/etcd/tls/client/tls.crt",
                "--key-file=/etc/etcd/tls/client/tls.key",
                "--peer-cert-file=/etc/etcd/tls/peer/tls.crt")));
        assertThat(tls).contains(new MemberTls("c-client-tls", "/etc/etcd/tls/client", false));
        var material = tls.get().load(secret("ca.crt", "tls.crt", "tls.key"));
        assertThat(new String(material.caPem(), StandardCharsets.UTF_8)).isEqualTo("pem of ca.crt");
        assertThat(material.mutual()).isFalse();
    }

    @Test
    void clientCertAuthOrTrustedCaMeansMutualTlsWithTheServerKeyPair() {
        for (List<String> args : List.of(
                List.of("--cert-file", "/etc/etcd/tls/client/tls.crt", "--client-cert-auth"),
                List.of("--cert-file=/etc/etcd/tls/client/tls.crt", "--client-cert-auth=true"),
                List.of("--cert-file=/etc/etcd/tls/client/tls.crt", "--trusted-ca-file=/etc/etcd/tls/client/ca.crt"))) {
            MemberTls tls = MemberTls.of(pod(args)).orElseThrow();
            assertThat(tls.mutual()).as("%s", args).isTrue();
            var material = tls.load(secret("ca.crt", "tls.crt", "tls.key"));
            assertThat(new String(material.certPem(), StandardCharsets.UTF_8)).isEqualTo("pem of tls.crt");
            assertThat(new String(material.keyPem(), StandardCharsets.UTF_8)).isEqualTo("pem of tls.key");
        }
        assertThat(MemberTls.of(pod(List.of("--cert-file=/etc/etcd/tls/client/tls.crt", "--client-cert-auth=false")))
                        .orElseThrow()
                        .mutual())
                .isFalse();
    }

    @Test
    void missingMaterialIsNamedWithoutItsContents() {
        MemberTls mutual = new MemberTls("c-client-tls", "/etc/etcd/tls/client", true);
        assertThatThrownBy(() -> mutual.load(secret("tls.crt", "tls.key"))).hasMessageContaining("has no ca.crt");
        assertThatThrownBy(() -> mutual.load(secret("ca.crt", "tls.crt"))).hasMessageContaining("has no tls.key");
    }

    @Test
    void aCertificateOutsideAnyMountIsExplained() {
        assertThatThrownBy(() -> MemberTls.of(pod(List.of("--cert-file=/somewhere/else/tls.crt"))))
                .isInstanceOf(PluginException.class)
                .hasMessageContaining("no volume is mounted there");
    }

    private static Pod pod(List<String> args) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("c-0")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("etcd")
                .withCommand("etcd")
                .withArgs(args)
                .addNewVolumeMount()
                .withName("data")
                .withMountPath("/var/lib/etcd")
                .endVolumeMount()
                .addNewVolumeMount()
                .withName("client-tls")
                .withMountPath("/etc/etcd/tls/client")
                .endVolumeMount()
                .addNewVolumeMount()
                .withName("peer-tls")
                .withMountPath("/etc/etcd/tls/peer")
                .endVolumeMount()
                .endContainer()
                .addNewVolume()
                .withName("data")
                .withNewEmptyDir()
                .endEmptyDir()
                .endVolume()
                .addNewVolume()
                .withName("client-tls")
                .withNewSecret()
                .withSecretName("c-client-tls")
                .endSecret()
                .endVolume()
                .addNewVolume()
                .withName("peer-tls")
                .withNewSecret()
                .withSecretName("c-peer-tls")
                .endSecret()
                .endVolume()
                .endSpec()
                .build();
    }

    private static Secret secret(String... keys) {
        SecretBuilder secret = new SecretBuilder()
                .withNewMetadata()
                .withName("c-client-tls")
                .withNamespace("ns")
                .endMetadata();
        for (String key : keys) {
            secret.addToData(
                    key, Base64.getEncoder().encodeToString(("pem of " + key).getBytes(StandardCharsets.UTF_8)));
        }
        return secret.build();
    }
}
