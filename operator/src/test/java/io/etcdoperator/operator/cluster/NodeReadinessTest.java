package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.planner.ObservedMember.NodeDown;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Nodes are read only under Pods that are not ready; a 403 on nodes leaves the observation as it was. */
@EnableKubernetesMockClient
class NodeReadinessTest {

    static KubernetesMockServer server;
    static KubernetesClient client;

    @Test
    void aNotReadyPodOnANodeWhoseReadyIsUnknownReportsTheNodeDownSinceItsTransition() {
        server.expect()
                .get()
                .withPath("/api/v1/nodes/node-3")
                .andReturn(200, node("node-3", "Unknown"))
                .once();
        Map<String, NodeDown> down =
                new NodeReadiness(client).down(List.of(pod("c", "node-3", false), pod("a", "node-1", true)));
        assertThat(down)
                .containsExactly(Map.entry("node-3", new NodeDown("node-3", Instant.parse("2026-01-01T00:00:00Z"))));
    }

    @Test
    void aReadyNodeIsNotDown() {
        server.expect()
                .get()
                .withPath("/api/v1/nodes/node-2")
                .andReturn(200, node("node-2", "True"))
                .once();
        assertThat(new NodeReadiness(client).down(List.of(pod("b", "node-2", false))))
                .isEmpty();
    }

    @Test
    void withoutRbacOnNodesNothingIsDownAndThePassGoesOn() {
        server.expect()
                .get()
                .withPath("/api/v1/nodes/node-4")
                .andReturn(
                        403,
                        new StatusBuilder()
                                .withCode(403)
                                .withReason("Forbidden")
                                .withMessage("nodes \"node-4\" is forbidden")
                                .build())
                .always();
        NodeReadiness nodes = new NodeReadiness(client);
        assertThat(nodes.down(List.of(pod("d", "node-4", false)))).isEmpty();
        assertThat(nodes.down(List.of(pod("d", "node-4", false)))).isEmpty();
    }

    private static Node node(String name, String ready) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewStatus()
                .addNewCondition()
                .withType("Ready")
                .withStatus(ready)
                .withLastTransitionTime("2026-01-01T00:00:00Z")
                .endCondition()
                .endStatus()
                .build();
    }

    private static Pod pod(String name, String node, boolean ready) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .endSpec()
                .withNewStatus()
                .addNewCondition()
                .withType("Ready")
                .withStatus(ready ? "True" : "False")
                .endCondition()
                .endStatus()
                .build();
    }
}
