package io.etcdoperator.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.AdditionalMetadata;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.operator.planner.MemberMaterial;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Cluster-level objects (Services, PDB, new EtcdMembers) rendered from one latched EtcdCluster. */
class ClusterGoldenTest {

    private final EtcdCluster cluster = Fixtures.cluster("cluster-demo");
    private final AdditionalMetadata latched = cluster.getStatus().getObserved().getAdditionalMetadata();

    @Test
    void headlessService() {
        Golden.assertMatches("service-headless", Services.headless(cluster, latched));
    }

    @Test
    void clientService() {
        Golden.assertMatches("service-client", Services.client(cluster, latched));
    }

    /** Mid scale-up: 3 voters towards a target of 5 keeps a majority of 5 up. */
    @Test
    void disruptionBudgetPolicyV1() {
        Golden.assertMatches("pdb-v1", DisruptionBudgets.v1(cluster, 3, latched));
    }

    @Test
    void disruptionBudgetPolicyV1beta1() {
        Golden.assertMatches("pdb-v1beta1", DisruptionBudgets.v1beta1(cluster, 3, latched));
    }

    @Test
    void pendingJoiningMember() {
        Golden.assertMatches("etcdmember-pending", EtcdMembers.pending(cluster, false, Optional.empty()));
    }

    @Test
    void pendingSeedCarriesTheRestore() {
        Golden.assertMatches("etcdmember-pending-seed", EtcdMembers.pending(cluster, true, Optional.empty()));
    }

    /** Operator-issued TLS: the member starts with the current material, and a user's annotation cannot fake it. */
    @Test
    void pendingMemberIsStampedWithTheMaterialItStartsWith() {
        latched.setAnnotations(Map.of(MemberMaterial.SERVER_ANNOTATION, "forged", "team", "a"));
        MemberMaterial material = new MemberMaterial("s1", "p1", List.of("ca1", "ca2"));

        var member = EtcdMembers.pending(cluster, false, Optional.of(material));

        assertThat(member.getMetadata().getAnnotations())
                .containsAllEntriesOf(material.annotations())
                .containsEntry("team", "a");
        assertThat(MemberPods.tlsMaterial(member)).isEqualTo(material.annotations());
    }
}
