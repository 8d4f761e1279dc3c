package io.etcdoperator.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import io.etcdoperator.api.v1alpha2.StorageSpec;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

class ClaimSizeTest {

    private static PersistentVolumeClaim claim(String size) {
        return new PersistentVolumeClaimBuilder()
                .withNewSpec()
                .withNewResources()
                .addToRequests("storage", new Quantity(size))
                .endResources()
                .endSpec()
                .build();
    }

    private static ObservedClusterSpec target(String size) {
        StorageSpec storage = new StorageSpec();
        storage.setSize(new Quantity(size));
        ObservedClusterSpec target = new ObservedClusterSpec();
        target.setStorage(storage);
        return target;
    }

    @Test
    void aClaimIsBehindOnlyWhenItAsksForLessThanTheTarget() {
        assertThat(ClaimSize.behind(claim("1Gi"), target("2Gi"))).isTrue();
        assertThat(ClaimSize.behind(claim("2048Mi"), target("2Gi")))
                .as("the same size in other units")
                .isFalse();
        assertThat(ClaimSize.behind(claim("4Gi"), target("2Gi")))
                .as("volumes never shrink")
                .isFalse();
        assertThat(ClaimSize.behind(null, target("2Gi")))
                .as("no claim (a memory member)")
                .isFalse();
        assertThat(ClaimSize.behind(claim("1Gi"), new ObservedClusterSpec()))
                .as("no size latched")
                .isFalse();
    }
}
