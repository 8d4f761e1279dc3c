package io.etcdoperator.operator.informer;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import org.junit.jupiter.api.Test;

class InternedStringsTest {

    private static final KubernetesSerialization JSON = ClientSerialization.create();

    private static Pod pod(String name) {
        return JSON.unmarshal("""
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","namespace":"tenant-a",
         "labels":{"etcd-operator.cozystack.io/cluster":"my-etcd"},
         "ownerReferences":[{"apiVersion":"etcd-operator.cozystack.io/v1alpha2","kind":"EtcdMember","name":"%s",
           "uid":"0b1c","controller":true}]},
         "spec":{"containers":[{"name":"etcd","image":"registry.k8s.io/etcd:3.5.16-0",
           "args":["--name=%s","%s"]}]},
         "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}
        """.formatted(name, name, name, "x".repeat(InternedStrings.LONGEST + 1)), Pod.class);
    }

    @Test
    void repeatedValuesOfTwoObjectsAreOneString() {
        Pod a = pod("my-etcd-0");
        Pod b = pod("my-etcd-1");
        assertThat(b.getMetadata().getNamespace()).isSameAs(a.getMetadata().getNamespace());
        assertThat(b.getMetadata().getLabels().get("etcd-operator.cozystack.io/cluster"))
                .isSameAs(a.getMetadata().getLabels().get("etcd-operator.cozystack.io/cluster"));
        assertThat(b.getMetadata().getOwnerReferences().getFirst().getKind())
                .isSameAs(a.getMetadata().getOwnerReferences().getFirst().getKind());
        assertThat(b.getSpec().getContainers().getFirst().getImage())
                .isSameAs(a.getSpec().getContainers().getFirst().getImage());
        assertThat(b.getStatus().getConditions().getFirst().getStatus())
                .isSameAs(a.getStatus().getConditions().getFirst().getStatus());
        assertThat(a.getMetadata().getName()).isEqualTo("my-etcd-0");
    }

    @Test
    void longValuesAreReadAsTheyAreAndEveryValueIsUnchanged() {
        Pod a = pod("m");
        Pod b = pod("m");
        List<String> argsA = a.getSpec().getContainers().getFirst().getArgs();
        List<String> argsB = b.getSpec().getContainers().getFirst().getArgs();
        assertThat(argsB.get(1)).isEqualTo(argsA.get(1)).isNotSameAs(argsA.get(1));
        assertThat(JSON.asJson(a))
                .isEqualTo(JSON.asJson(b))
                .isEqualTo(JSON.asJson(new KubernetesSerialization().unmarshal(JSON.asJson(a), Pod.class)));
        EtcdMember member = JSON.unmarshal("""
        {"apiVersion":"etcd-operator.cozystack.io/v1alpha2","kind":"EtcdMember","metadata":{"name":"m"},
         "spec":{"clusterName":"c"}}""", EtcdMember.class);
        assertThat(member.getMetadata().getName()).isEqualTo("m");
    }
}
