package io.etcdoperator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class OperatorPassesTest {

    private static final String BEFORE = """
      # HELP operator_sdk_reconciliations_executions_etcdcluster_total
      # TYPE operator_sdk_reconciliations_executions_etcdcluster_total counter
      operator_sdk_reconciliations_executions_etcdcluster_total 10.0
      etcd_operator_cache_passes_total{controller="etcdcluster",result="settled"} 4.0
      etcd_operator_cluster_ready_members{cluster="a",namespace="n"} 3.0
      """;

    private static final String AFTER = """
      operator_sdk_reconciliations_executions_etcdcluster_total 25.0
      operator_sdk_reconciliations_executions_etcdmember_total 7.0
      etcd_operator_cache_passes_total{controller="etcdcluster",result="settled"} 4.0
      etcd_operator_cache_passes_total{controller="etcdcluster",result="api_server"} 2.0
      """;

    @Test
    void countsOnlyPassCountersAndHowMuchEachGrew() {
        assertThat(OperatorPasses.parse(AFTER).since(OperatorPasses.parse(BEFORE)))
                .isEqualTo(Map.of(
                        "operator_sdk_reconciliations_executions_etcdcluster_total", 15L,
                        "operator_sdk_reconciliations_executions_etcdmember_total", 7L,
                        "etcd_operator_cache_passes_total{controller=\"etcdcluster\",result=\"api_server\"}", 2L));
        assertThat(OperatorPasses.parse(BEFORE).counters())
                .doesNotContainKey("etcd_operator_cluster_ready_members{cluster=\"a\",namespace=\"n\"}");
    }
}
