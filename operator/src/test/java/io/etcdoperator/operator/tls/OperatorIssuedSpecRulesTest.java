package io.etcdoperator.operator.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.ClusterTls;
import io.etcdoperator.api.v1alpha2.EtcdClusterSpec;
import io.etcdoperator.api.v1alpha2.OperatorIssuedTls;
import io.etcdoperator.operator.planner.SpecRules;
import org.junit.jupiter.api.Test;

/** The operator refuses operatorIssued mixed with client or peer even where the API server skipped the CEL rule. */
class OperatorIssuedSpecRulesTest {

    private static final String MIXED = "spec.tls.operatorIssued cannot be combined with tls.client or tls.peer";

    @Test
    void operatorIssuedAloneIsValid() {
        assertThat(SpecRules.checkSpec(spec(issued(new ClusterTls())))).isEmpty();
    }

    @Test
    void operatorIssuedWithClientIsRefused() {
        ClusterTls tls = issued(TlsClusters.bringYourOwn().getSpec().getTls());
        tls.setPeer(null);

        assertThat(SpecRules.checkSpec(spec(tls))).singleElement().asString().startsWith(MIXED);
    }

    @Test
    void operatorIssuedWithPeerIsRefused() {
        ClusterTls tls = issued(
                TlsClusters.certManager(null, null, "ca", "Issuer").getSpec().getTls());

        assertThat(SpecRules.checkSpec(spec(tls))).singleElement().asString().startsWith(MIXED);
    }

    @Test
    void clientAndPeerWithoutOperatorIssuedAreValid() {
        assertThat(SpecRules.checkSpec(spec(TlsClusters.bringYourOwn().getSpec().getTls())))
                .isEmpty();
    }

    private static ClusterTls issued(ClusterTls tls) {
        tls.setOperatorIssued(new OperatorIssuedTls());
        return tls;
    }

    private static EtcdClusterSpec spec(ClusterTls tls) {
        EtcdClusterSpec spec = new EtcdClusterSpec();
        spec.setVersion("3.5.16");
        spec.setTls(tls);
        return spec;
    }
}
