package io.etcdoperator.operator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdoperator.operator.config.OperatorConfig.InvalidConfigException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class OperatorConfigTest {

    private static OperatorConfig config(Optional<String> operatorImage, String repository, String domain) {
        return new OperatorConfig(
                new InetSocketAddress(8080),
                new InetSocketAddress(8081),
                true,
                "etcd-operator",
                "pod-1",
                domain,
                operatorImage,
                repository,
                List.of("a", "b"));
    }

    private static OperatorConfig withRepository(String repository) {
        return config(Optional.of("ghcr.io/example/etcd-operator:v0.1.0"), repository, "cluster.local");
    }

    private static OperatorConfig withDomain(String domain) {
        return config(Optional.empty(), OperatorConfig.DEFAULT_ETCD_REPOSITORY, domain);
    }

    @Test
    void validSettingsAreKept() {
        OperatorConfig config = withRepository(OperatorConfig.DEFAULT_ETCD_REPOSITORY);
        assertThat(config.etcdImage("3.5.16")).isEqualTo("quay.io/coreos/etcd:v3.5.16");
        assertThat(config.operatorImage()).contains("ghcr.io/example/etcd-operator:v0.1.0");
        assertThat(config.watchNamespaces()).containsExactly("a", "b");
    }

    @Test
    void anUnsetOperatorImageIsAllowed() {
        assertThat(withDomain("cluster.local").operatorImage()).isEmpty();
    }

    @Test
    void placeholderOperatorImageIsRejected() {
        assertThatThrownBy(() -> config(
                        Optional.of("controller:latest"), OperatorConfig.DEFAULT_ETCD_REPOSITORY, "cluster.local"))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("--operator-image")
                .hasMessageContaining("controller:latest");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "quay.io/coreos/etcd",
                "registry.internal/mirror/etcd",
                "registry.local:5000/mirror/etcd",
                "etcd",
                "localhost:5000/etcd"
            })
    void untaggedRepositoriesAreAccepted(String repository) {
        assertThat(withRepository(repository).etcdImage("3.5.16")).isEqualTo(repository + ":v3.5.16");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "etcd:v3.5.16", "etcd:latest"})
    void taggedOrBlankRepositoriesAreRejected(String repository) {
        assertThatThrownBy(() -> withRepository(repository))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("--etcd-image-repository");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "quay.io/coreos/etcd:v3.5.16",
                "registry.local:5000/mirror/etcd:v3.5.16",
                "quay.io/coreos/etcd@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
            })
    void taggedRepositoriesWithARegistryAreRejected(String repository) {
        assertThatThrownBy(() -> withRepository(repository))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("--etcd-image-repository");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cluster.local", "cozy.local", "k8s-1.example.test", "local", "a"})
    void dnsNamesAreAcceptedAsClusterDomain(String domain) {
        assertThat(withDomain(domain).clusterDomain()).isEqualTo(domain);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "Cluster.Local",
                "cluster.local.",
                ".cluster.local",
                "-cluster.local",
                "cluster_local",
                "cluster local",
                "cluster.local/x"
            })
    void badClusterDomainsAreRejected(String domain) {
        assertThatThrownBy(() -> withDomain(domain))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("--cluster-domain");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cozy..local", "cozy-.local", "cozy.-local"})
    void clusterDomainsWithInvalidLabelsAreRejected(String domain) {
        assertThatThrownBy(() -> withDomain(domain))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("--cluster-domain");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "8080     | must look like",
                "''       | must look like",
                ":x       | no numeric port",
                ":        | no numeric port",
                "host:    | no numeric port",
                ":70000   | out of range",
                ":65536   | out of range",
                ":-1      | out of range"
            })
    void badBindAddressesNameTheFlag(String value, String reason) {
        assertThatThrownBy(() -> OperatorConfig.bindAddress("--metrics-bind-address", value))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageStartingWith("--metrics-bind-address")
                .hasMessageContaining(reason);
    }

    @Test
    void bindAddressWithoutHostListensOnAllInterfaces() {
        InetSocketAddress address = OperatorConfig.bindAddress("--health-probe-bind-address", ":8081");
        assertThat(address.getPort()).isEqualTo(8081);
        assertThat(address.getAddress().isAnyLocalAddress()).isTrue();
    }

    @Test
    void bindAddressWithLoopbackHost() {
        InetSocketAddress address = OperatorConfig.bindAddress("--metrics-bind-address", "127.0.0.1:8080");
        assertThat(address.getPort()).isEqualTo(8080);
        assertThat(address.getAddress().isLoopbackAddress()).isTrue();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            nullValues = "NULL",
            value = {
                "NULL        | ''",
                "''          | ''",
                "'  '        | ''",
                "prod        | prod",
                "' a, b ,,c' | a;b;c"
            })
    void watchNamespacesAreACommaSeparatedList(String flag, String expected) {
        List<String> parsed = OperatorConfig.namespaces(flag);
        assertThat(parsed).isEqualTo(expected.isEmpty() ? List.of() : List.of(expected.split(";")));
    }
}
