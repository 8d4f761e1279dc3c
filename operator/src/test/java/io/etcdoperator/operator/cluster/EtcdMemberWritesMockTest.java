package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.etcdoperator.operator.MockCrds;
import io.etcdoperator.operator.TestClusters;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A promotion's isVoter write: one PATCH by name, and none needed for an EtcdMember deleted meanwhile. */
@EnableKubernetesMockClient(crud = true)
class EtcdMemberWritesMockTest {

    static KubernetesClient client;
    static KubernetesMockServer server;
    private static final String NS = "default";
    private final EtcdCluster cluster = TestClusters.cluster(NS, "demo", 3, null);

    @BeforeEach
    void setUp() {
        MockCrds.install(client);
    }

    @Test
    void aPromotedMemberIsAVoterAfterOneRequest() {
        EtcdMember member = new EtcdMember();
        member.getMetadata().setName("demo-a");
        member.getMetadata().setNamespace(NS);
        EtcdMemberSpec spec = new EtcdMemberSpec();
        spec.setClusterName("demo");
        member.setSpec(spec);
        client.resource(member).create();
        int before = server.getRequestCount();

        new EtcdMemberWrites(client).markVoter(cluster, "demo-a");

        assertThat(server.getRequestCount() - before).isEqualTo(1);
        assertThat(client.resources(EtcdMember.class)
                        .inNamespace(NS)
                        .withName("demo-a")
                        .get()
                        .getStatus()
                        .getIsVoter())
                .isTrue();
    }

    @Test
    void aMemberDeletedMeanwhileNeedsNoMark() {
        assertThatCode(() -> new EtcdMemberWrites(client).markVoter(cluster, "gone"))
                .doesNotThrowAnyException();
    }
}
