package io.etcdoperator.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdOptions;
import io.etcdoperator.api.v1alpha2.StorageSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class BackendQuotaTest {

    @Test
    void anExplicitQuotaWins() {
        EtcdOptions options = new EtcdOptions();
        options.setQuotaBackendBytes(8388608L);
        assertThat(BackendQuota.flag(options, storage("256Mi"))).isEqualTo(OptionalLong.of(8388608L));
    }

    @Test
    void aSmallVolumeGetsHalfItsSizeSoTheAlarmFiresBeforeTheDiskIsFull() {
        assertThat(BackendQuota.flag(null, storage("256Mi"))).isEqualTo(OptionalLong.of(128L * 1024 * 1024));
        assertThat(BackendQuota.flag(new EtcdOptions(), storage("1Gi"))).isEqualTo(OptionalLong.of(512L * 1024 * 1024));
        assertThat(BackendQuota.bytes(null, storage("256Mi"))).isEqualTo(128L * 1024 * 1024);
    }

    @Test
    void aVolumeOfFourGiBOrMoreKeepsEtcdsDefaultWithoutAFlag() {
        assertThat(BackendQuota.flag(null, storage("4Gi"))).isEmpty();
        assertThat(BackendQuota.flag(null, storage("100Gi"))).isEmpty();
        assertThat(BackendQuota.flag(null, null)).isEmpty();
        assertThat(BackendQuota.bytes(null, storage("100Gi"))).isEqualTo(BackendQuota.ETCD_DEFAULT);
    }

    private static StorageSpec storage(String size) {
        StorageSpec s = new StorageSpec();
        s.setSize(new Quantity(size));
        return s;
    }
}
