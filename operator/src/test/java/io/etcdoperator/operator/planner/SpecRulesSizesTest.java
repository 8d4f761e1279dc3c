package io.etcdoperator.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.ClusterTls;
import io.etcdoperator.api.v1alpha2.EtcdClusterSpec;
import io.etcdoperator.api.v1alpha2.EtcdOptions;
import io.etcdoperator.api.v1alpha2.OperatorIssuedTls;
import io.etcdoperator.api.v1alpha2.StorageSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

/** Sizes that cannot work are refused with a reason before anything is created. */
class SpecRulesSizesTest {

    private static EtcdClusterSpec spec(String size, String medium) {
        EtcdClusterSpec s = new EtcdClusterSpec();
        s.setReplicas(3);
        s.setVersion("3.5.16");
        StorageSpec storage = new StorageSpec();
        storage.setSize(new Quantity(size));
        storage.setMedium(medium);
        s.setStorage(storage);
        return s;
    }

    @Test
    void memoryBelow128MiCannotHoldEtcdsWalSegments() {
        assertThat(SpecRules.checkSpec(spec("64Mi", "Memory")))
                .singleElement()
                .asString()
                .contains("at least 128Mi")
                .contains("64Mi");
        assertThat(SpecRules.checkSpec(spec("128Mi", "Memory"))).isEmpty();
        assertThat(SpecRules.checkSpec(spec("64Mi", "")))
                .as("a PVC holds the same segments")
                .singleElement()
                .asString()
                .contains("at least 128Mi")
                .contains("64Mi");
        assertThat(SpecRules.checkSpec(spec("128Mi", ""))).isEmpty();
    }

    @Test
    void aQuotaLargerThanTheVolumeIsRefused() {
        EtcdClusterSpec s = spec("1Gi", "");
        EtcdOptions options = new EtcdOptions();
        options.setQuotaBackendBytes(2L * 1024 * 1024 * 1024);
        s.setOptions(options);
        assertThat(SpecRules.checkSpec(s)).singleElement().asString().contains("quotaBackendBytes");
        options.setQuotaBackendBytes(512L * 1024 * 1024);
        assertThat(SpecRules.checkSpec(s)).isEmpty();
    }

    @Test
    void aCertificateDurationShorterThanFiveMinutesIsRefused() {
        EtcdClusterSpec s = spec("1Gi", "");
        ClusterTls tls = new ClusterTls();
        OperatorIssuedTls issued = new OperatorIssuedTls();
        issued.setCertificateDuration("2m");
        tls.setOperatorIssued(issued);
        s.setTls(tls);
        assertThat(SpecRules.checkSpec(s)).singleElement().asString().contains("at least 5m");
        issued.setCertificateDuration("9m");
        assertThat(SpecRules.checkSpec(s)).isEmpty();
        issued.setCertificateDuration("soon");
        assertThat(SpecRules.checkSpec(s)).singleElement().asString().contains("not a duration");
    }
}
