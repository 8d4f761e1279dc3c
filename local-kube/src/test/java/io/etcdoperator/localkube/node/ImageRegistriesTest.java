package io.etcdoperator.localkube.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ImageRegistriesTest {

    private final ImageRegistries registries =
            new ImageRegistries(Map.of("ghcr.io", "127.0.0.1:5000", "127.0.0.1:5001", "127.0.0.1:5001"), Path.of("x"));

    @Test
    void anImageIsPulledFromTheEndpointOfTheRegistryItNames() {
        assertThat(registries.endpoint("ghcr.io/etcd-operator-java/etcd-operator:0.1.0"))
                .contains("127.0.0.1:5000");
        assertThat(registries.endpoint("127.0.0.1:5001/etcd-operator:1.0.0")).contains("127.0.0.1:5001");
        assertThat(registries.endpoint("quay.io/coreos/etcd:v3.5.16")).isEmpty();
        assertThat(registries.endpoint("busybox")).isEmpty();
    }

    @Test
    void theImageIdNamesTheRepositoryWithoutTagOrDigest() {
        assertThat(ImageRegistries.repository("127.0.0.1:5001/etcd-operator:1.0.0"))
                .isEqualTo("127.0.0.1:5001/etcd-operator");
        assertThat(ImageRegistries.repository("ghcr.io/a/b@sha256:abc")).isEqualTo("ghcr.io/a/b");
        assertThat(ImageRegistries.repository("127.0.0.1:5001/etcd-operator"))
                .isEqualTo("127.0.0.1:5001/etcd-operator");
    }

    @Test
    void anImageOfAnotherRegistryFailsWithTheReasonAndIsNotPulled() {
        ImagePull pull = registries.pull("quay.io/coreos/etcd:v9.9.9");
        assertThat(pull.image()).isEmpty();
        assertThat(pull.failure())
                .isEqualTo("image \"quay.io/coreos/etcd:v9.9.9\" is not in the local image catalogue and its registry"
                        + " is not one this node pulls from");
    }
}
