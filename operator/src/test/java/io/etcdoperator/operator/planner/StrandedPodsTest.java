package io.etcdoperator.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.planner.ObservedCluster.StrandedPod;
import io.etcdoperator.operator.planner.ObservedMember.NodeDown;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Only a deleted member's Pod, itself being deleted, on a node that is down counts as stranded. */
class StrandedPodsTest {

    private static final NodeDown DOWN = new NodeDown("node-3", Instant.parse("2026-01-01T00:00:00Z"));

    @Test
    void aTerminatingPodOfAGoneMemberOnADownNodeIsStranded() {
        Map<String, Pod> pods = Map.of("c", pod("c", "node-3", true, "EtcdMember"));
        assertThat(StrandedPods.of(List.of(), pods, Map.of("node-3", DOWN)))
                .containsExactly(new StrandedPod("c", DOWN));
    }

    @Test
    void notWhileItsMemberExistsNorBeforeItIsDeletedNorOnAReadyNodeNorWhenNotAMemberPod() {
        EtcdMember c = new EtcdMember();
        c.setMetadata(new ObjectMetaBuilder().withName("c").build());
        Map<String, NodeDown> down = Map.of("node-3", DOWN);
        assertThat(StrandedPods.of(List.of(c), Map.of("c", pod("c", "node-3", true, "EtcdMember")), down))
                .isEmpty();
        assertThat(StrandedPods.of(List.of(), Map.of("c", pod("c", "node-3", false, "EtcdMember")), down))
                .isEmpty();
        assertThat(StrandedPods.of(List.of(), Map.of("c", pod("c", "node-1", true, "EtcdMember")), down))
                .isEmpty();
        assertThat(StrandedPods.of(List.of(), Map.of("j", pod("j", "node-3", true, "Job")), down))
                .isEmpty();
    }

    private static Pod pod(String name, String node, boolean terminating, String ownerKind) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withDeletionTimestamp(terminating ? "2026-01-01T00:01:00Z" : null)
                .addNewOwnerReference()
                .withKind(ownerKind)
                .withName(name)
                .endOwnerReference()
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .endSpec()
                .build();
    }
}
