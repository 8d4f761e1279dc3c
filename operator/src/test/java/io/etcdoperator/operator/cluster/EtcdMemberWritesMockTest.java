package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.MockCrds;
import io.etcdoperator.operator.TestClusters;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The cluster controller's status writes to EtcdMembers: one PATCH by name each, none for a member deleted meanwhile. */
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
        create("demo-a");
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
    void aLearnerJustAddedHasItsIdAndIsNoVoterAfterOneRequest() {
        create("demo-b");
        int before = server.getRequestCount();

        new EtcdMemberWrites(client).recordLearner(cluster, "demo-b", "8e9e05c52164694d");

        assertThat(server.getRequestCount() - before).isEqualTo(1);
        var status = client.resources(EtcdMember.class)
                .inNamespace(NS)
                .withName("demo-b")
                .get()
                .getStatus();
        assertThat(status.getMemberID()).isEqualTo("8e9e05c52164694d");
        assertThat(status.getIsVoter()).isFalse();
    }

    private static void create(String name) {
        client.resource(TestClusters.member(NS, name, "demo")).create();
    }

    @Test
    void aMemberDeletedMeanwhileNeedsNoMark() {
        assertThatCode(() -> new EtcdMemberWrites(client).markVoter(cluster, "gone"))
                .doesNotThrowAnyException();
    }
}
