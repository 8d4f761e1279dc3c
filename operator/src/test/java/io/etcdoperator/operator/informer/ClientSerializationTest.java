package io.etcdoperator.operator.informer;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

class ClientSerializationTest {

    private static final String MEMBER = """
            {"apiVersion":"etcd-operator.cozystack.io/v1alpha2","kind":"EtcdMember","metadata":{"name":"m"},
             "spec":{"clusterName":"c"}}""";

    /** How a watch event's object is read: by its apiVersion and kind, with no class asked for. */
    @Test
    void theApisKindsAreReadIntoTheirClassesWithoutAGenericMapFirst() {
        KubernetesSerialization json = ClientSerialization.create();
        HasMetadata member = json.unmarshal(MEMBER);
        assertThat(member).isInstanceOf(EtcdMember.class);
        assertThat(((EtcdMember) member).getSpec().getClusterName()).isEqualTo("c");
        HasMetadata cluster = json.unmarshal("""
                {"apiVersion":"etcd-operator.cozystack.io/v1alpha2","kind":"EtcdCluster","metadata":{"name":"c"},
                 "spec":{"replicas":3}}""");
        assertThat(cluster).isInstanceOf(EtcdCluster.class);
        for (Class<?> kind : EtcdOperatorApi.KINDS) {
            String name = kind.getSimpleName();
            assertThat(json.getRegisteredKubernetesResource(EtcdOperatorApi.API_VERSION, name))
                    .as(name)
                    .isEqualTo(kind);
        }
    }

    /** Without the registration fabric8 reads them as maps, which the informer then converts: the cost removed. */
    @Test
    void aPlainSerializationReadsThemAsGenericMaps() {
        assertThat((Object) new KubernetesSerialization().unmarshal(MEMBER))
                .isInstanceOf(GenericKubernetesResource.class);
    }
}
