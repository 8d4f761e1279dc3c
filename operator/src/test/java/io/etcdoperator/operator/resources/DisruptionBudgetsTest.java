package io.etcdoperator.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DisruptionBudgetsTest {

    private final EtcdCluster cluster = Fixtures.cluster("cluster-demo");

    /** A majority of the larger of the live voters and the target, so a drain during scaling never takes quorum. */
    @ParameterizedTest(name = "{0} voters, target {1} -> minAvailable {2}")
    @CsvSource({
        "1, 1, 1", "3, 3, 2", "4, 4, 3", "5, 5, 3", "7, 7, 4", "1, 3, 2", "2, 3, 2", "3, 5, 3", "5, 7, 4", "5, 3, 3",
        "4, 3, 3", "3, 1, 2"
    })
    void minAvailableIsAMajorityOfVotersOrTarget(int voters, int target, int minAvailable) {
        var v1 = DisruptionBudgets.v1(cluster, voters, target, null);
        var v1beta1 = DisruptionBudgets.v1beta1(cluster, voters, target, null);
        assertThat(v1.getSpec().getMinAvailable().getIntVal()).isEqualTo(minAvailable);
        assertThat(v1beta1.getSpec().getMinAvailable().getIntVal()).isEqualTo(minAvailable);
        assertThat(v1.getSpec().getMaxUnavailable()).isNull();
        assertThat(v1.getSpec().getSelector().getMatchLabels())
                .containsEntry(EtcdOperatorApi.LABEL_ROLE, EtcdOperatorApi.ROLE_VOTER)
                .isEqualTo(v1beta1.getSpec().getSelector().getMatchLabels());
    }
}
