package io.etcdoperator.operator.informer;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberStatus;
import io.etcdoperator.operator.resources.Fixtures;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

/** A copy is what the client's JSON clone gave, and a pass that edits it leaves the cache's object as it was. */
class ObjectCopiesTest {

    private final KubernetesSerialization json = new KubernetesSerialization();

    @Test
    void memberCopyIsEqualAndSharesNoMutableObject() {
        EtcdMember cached = Fixtures.member("member-joining-full");
        EtcdMember copy = ObjectCopies.of(cached);

        assertThat(json.asJson(copy)).isEqualTo(json.asJson(cached)).isEqualTo(json.asJson(json.clone(cached)));
        assertThat(copy).isNotSameAs(cached);
        assertThat(copy.getMetadata()).isNotSameAs(cached.getMetadata());
        assertThat(copy.getSpec()).isNotSameAs(cached.getSpec());
        assertThat(copy.getStatus()).isNotSameAs(cached.getStatus());
        assertThat(copy.getSpec().getAdditionalMetadata().getLabels())
                .isNotSameAs(cached.getSpec().getAdditionalMetadata().getLabels());
        assertThat(copy.getSpec().getResources().getRequests().get("cpu"))
                .isNotSameAs(cached.getSpec().getResources().getRequests().get("cpu"));
        assertThat(copy.getSpec().getAffinity()).isNotSameAs(cached.getSpec().getAffinity());
        assertThat(copy.getSpec().getTopologySpreadConstraints())
                .isNotSameAs(cached.getSpec().getTopologySpreadConstraints());

        copy.getSpec().getAdditionalMetadata().getLabels().put("team", "changed");
        copy.getSpec().getResources().getRequests().put("cpu", new Quantity("1"));
        copy.getStatus().setIsVoter(true);
        copy.getMetadata().setResourceVersion("99");
        assertThat(json.asJson(cached)).isEqualTo(json.asJson(Fixtures.member("member-joining-full")));
    }

    @Test
    void clusterCopyIsEqualAndItsStatusIsItsOwn() {
        EtcdCluster cached = Fixtures.cluster("cluster-demo");
        EtcdCluster copy = ObjectCopies.of(cached);

        assertThat(json.asJson(copy)).isEqualTo(json.asJson(cached));
        assertThat(copy.getSpec()).isNotSameAs(cached.getSpec());
        copy.getSpec().setReplicas(7);
        assertThat(copy.getStatus().getObserved())
                .isNotSameAs(cached.getStatus().getObserved());
        copy.getStatus().setClusterToken("another");
        assertThat(json.asJson(cached)).isEqualTo(json.asJson(Fixtures.cluster("cluster-demo")));
    }

    @Test
    void aStatusAloneAndNothing() {
        EtcdMemberStatus status = new EtcdMemberStatus();
        status.setMemberID("8e9e05c52164694d");
        EtcdMemberStatus copy = ObjectCopies.of(status);

        assertThat(copy).isNotSameAs(status);
        assertThat(copy.getMemberID()).isEqualTo("8e9e05c52164694d");
        assertThat(ObjectCopies.<EtcdMemberStatus>of(null)).isNull();
    }
}
