package io.etcdoperator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ApiWritesTest {

    private static final String BEFORE = """
      # TYPE apiserver_request_total counter
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="etcd-operator.cozystack.io",resource="etcdmembers",scope="resource",subresource="status",verb="PATCH",version="v1alpha2"} 4
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="namespace",subresource="",verb="LIST",version="v1"} 90
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1"} 300
      """;
    private static final String AFTER = """
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="etcd-operator.cozystack.io",resource="etcdmembers",scope="resource",subresource="status",verb="PATCH",version="v1alpha2"} 6
      apiserver_request_total{code="409",component="apiserver",dry_run="",group="etcd-operator.cozystack.io",resource="etcdmembers",scope="resource",subresource="status",verb="PUT",version="v1alpha2"} 1
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="namespace",subresource="",verb="LIST",version="v1"} 150
      apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="events",scope="namespace",subresource="",verb="POST",version="v1"} 1
      apiserver_request_total{code="200",component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1"} 330
      """;

    @Test
    void countsOnlyWritesToTheOperatorsKinds() {
        Map<String, Long> delta = ApiWrites.parse(AFTER).since(ApiWrites.parse(BEFORE));
        assertThat(delta).containsExactlyInAnyOrderEntriesOf(Map.of("etcdmembers/status", 3L, "events", 1L));
        assertThat(ApiWrites.total(delta)).isEqualTo(4);
    }

    @Test
    void noWritesIsAnEmptyDelta() {
        assertThat(ApiWrites.parse(BEFORE).since(ApiWrites.parse(BEFORE))).isEmpty();
    }
}
