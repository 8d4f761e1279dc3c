package io.etcdoperator.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DisruptionBudgetsTest {

    private final EtcdCluster cluster = Fixtures.cluster("cluster-demo");

    /** The minAvailable the planner asks (ClusterWideObjectsTest), over the voters only, never with maxUnavailable. */
    @ParameterizedTest(name = "minAvailable {0}")
    @CsvSource({"1", "2", "3", "4"})
    void theBudgetKeepsTheMinAvailableItIsGivenOverTheVoters(int minAvailable) {
        var v1 = DisruptionBudgets.v1(cluster, minAvailable, null);
        var v1beta1 = DisruptionBudgets.v1beta1(cluster, minAvailable, null);
        assertThat(v1.getSpec().getMinAvailable().getIntVal()).isEqualTo(minAvailable);
        assertThat(v1beta1.getSpec().getMinAvailable().getIntVal()).isEqualTo(minAvailable);
        assertThat(v1.getSpec().getMaxUnavailable()).isNull();
        assertThat(v1.getSpec().getSelector().getMatchLabels())
                .containsEntry(EtcdOperatorApi.LABEL_ROLE, EtcdOperatorApi.ROLE_VOTER)
                .isEqualTo(v1beta1.getSpec().getSelector().getMatchLabels());
    }
}
