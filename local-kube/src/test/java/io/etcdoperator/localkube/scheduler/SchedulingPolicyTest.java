package io.etcdoperator.localkube.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SchedulingPolicyTest {

    private final List<Node> nodes =
            List.of(node("node-1", "a", true), node("node-2", "b", true), node("node-3", "a", true));

    @Test
    void picksTheLeastLoadedFittingNode() {
        List<SchedulingPolicy.Placed> placed = List.of(
                new SchedulingPolicy.Placed(pod("x", Map.of()), "node-1"),
                new SchedulingPolicy.Placed(pod("y", Map.of()), "node-2"));

        assertThat(SchedulingPolicy.choose(pod("new", Map.of()), nodes, placed).node())
                .contains("node-3");
    }

    @Test
    void honoursTheNodeSelector() {
        Pod pod = pod("zoned", Map.of());
        pod.getSpec().setNodeSelector(Map.of("topology.kubernetes.io/zone", "b"));

        assertThat(SchedulingPolicy.choose(pod, nodes, List.of()).node()).contains("node-2");
    }

    @Test
    void skipsNodesThatAreNotReadyOrTainted() {
        List<Node> some =
                List.of(node("node-1", "a", false), tainted(node("node-2", "b", true)), node("node-3", "a", true));

        assertThat(SchedulingPolicy.choose(pod("p", Map.of()), some, List.of()).node())
                .contains("node-3");
    }

    @Test
    void requiredAntiAffinitySpreadsMembersAcrossHostsAndReportsWhenNoneIsLeft() {
        List<SchedulingPolicy.Placed> placed = List.of(
                new SchedulingPolicy.Placed(member("m-0"), "node-1"),
                new SchedulingPolicy.Placed(member("m-1"), "node-2"));

        assertThat(SchedulingPolicy.choose(member("m-2"), nodes, placed).node()).contains("node-3");

        List<SchedulingPolicy.Placed> full =
                List.of(placed.get(0), placed.get(1), new SchedulingPolicy.Placed(member("m-2"), "node-3"));
        SchedulingPolicy.Decision decision = SchedulingPolicy.choose(member("m-3"), nodes, full);
        assertThat(decision.node()).isEmpty();
        assertThat(decision.reason())
                .isEqualTo("0/3 nodes are available, 3 node(s) didn't match pod anti-affinity rules.");
    }

    @Test
    void antiAffinityByZoneLeavesOnlyTheOtherZone() {
        Pod pod = member("m-1");
        pod.getSpec()
                .getAffinity()
                .getPodAntiAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()
                .getFirst()
                .setTopologyKey("topology.kubernetes.io/zone");

        Optional<String> node = SchedulingPolicy.choose(
                        pod, nodes, List.of(new SchedulingPolicy.Placed(member("m-0"), "node-1")))
                .node();

        assertThat(node).contains("node-2");
    }

    private static Node node(String name, String zone, boolean ready) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(Map.of("kubernetes.io/hostname", name, "topology.kubernetes.io/zone", zone))
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .withNewStatus()
                .addNewCondition()
                .withType("Ready")
                .withStatus(ready ? "True" : "False")
                .endCondition()
                .endStatus()
                .build();
    }

    private static Node tainted(Node node) {
        node.getSpec()
                .setTaints(List.of(new TaintBuilder()
                        .withKey("node.kubernetes.io/unreachable")
                        .withEffect("NoSchedule")
                        .build()));
        return node;
    }

    private static Pod pod(String name, Map<String, String> labels) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("ns")
                .withUid(name)
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .build();
    }

    private static Pod member(String name) {
        Pod pod = pod(name, Map.of("app", "etcd"));
        pod.getSpec()
                .setAffinity(new AffinityBuilder()
                        .withNewPodAntiAffinity()
                        .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                        .withNewLabelSelector()
                        .addToMatchLabels("app", "etcd")
                        .endLabelSelector()
                        .withTopologyKey("kubernetes.io/hostname")
                        .endRequiredDuringSchedulingIgnoredDuringExecution()
                        .endPodAntiAffinity()
                        .build());
        return pod;
    }
}
