package io.etcdoperator.operator.snapshot;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterStatus;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.etcdoperator.api.v1alpha2.EtcdMemberStatus;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.StorageSpec;
import io.etcdoperator.operator.MockCrds;
import io.etcdoperator.operator.TestClusters;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.util.Map;

/** A formed one-voter cluster on the fabric8 CRUD mock, as the snapshot reconcilers see it. */
final class MockCluster {

    private MockCluster() {}

    static void installCrds(KubernetesClient client) throws IOException {
        MockCrds.install(client);
    }

    static EtcdCluster formed(KubernetesClient client, String namespace, String name) {
        EtcdCluster cluster = TestClusters.cluster(namespace, name, 1, null);
        StorageSpec storage = cluster.getSpec().getStorage();
        cluster = client.resource(cluster).create();
        EtcdClusterStatus status = new EtcdClusterStatus();
        status.setClusterID("c0ffee0000000001");
        cluster.setStatus(status);
        cluster = client.resource(cluster).updateStatus();

        EtcdMember member = new EtcdMember();
        member.getMetadata().setName(name + "-abcde");
        member.getMetadata().setNamespace(namespace);
        member.getMetadata().setLabels(Map.of(EtcdOperatorApi.LABEL_CLUSTER, name));
        EtcdMemberSpec memberSpec = new EtcdMemberSpec();
        memberSpec.setClusterName(name);
        memberSpec.setVersion("3.5.16");
        memberSpec.setStorage(storage);
        memberSpec.setInitialCluster(name + "-abcde=http://" + name + "-abcde." + name + "." + namespace + ".svc:2380");
        memberSpec.setClusterToken("t");
        member.setSpec(memberSpec);
        member = client.resource(member).create();
        EtcdMemberStatus memberStatus = new EtcdMemberStatus();
        memberStatus.setIsVoter(true);
        memberStatus.setPodName(name + "-abcde");
        member.setStatus(memberStatus);
        client.resource(member).updateStatus();
        return cluster;
    }
}
