package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.localkube.node.SimulatedNode;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The node under one member of a 3-member PVC cluster (the only member on that node) stops (its containers die, its heartbeats stop). The node
 * lifecycle controller marks it NotReady after its node-monitor-grace-period; the operator waits out its own grace
 * time (NodeNotReady), then replaces the member: MemberRemove through the other voters, a new learner on a Ready
 * node, promotion; the old Pod, which no kubelet will ever confirm deleted, is force-deleted. A client writes
 * acknowledged keys the whole time; every one is read back and the cluster id never changes. The node is started
 * again at the end, so later tests have their three nodes.
 */
@ExtendWith(LocalKubernetesExtension.class)
class NodeLossE2EIT {

    @Test
    void aMemberOnAStoppedNodeIsReplacedOnAnotherNode(E2eEnvironment env) throws Exception {
        String ns = env.namespace("node-loss");
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "node-loss-");
        try (WritingClient writer = WritingClient.plaintext(env, ns, "nl")) {
            String node = target(env, ns);
            formWithOneMemberOn(env, ns, node);
            String clusterId =
                    (String) E2eEnvironment.status(env.cluster(ns, "nl")).get("clusterID");
            String name = env.memberPods(ns, "nl").stream()
                    .filter(p -> node.equals(p.getSpec().getNodeName()))
                    .map(p -> p.getMetadata().getName())
                    .findFirst()
                    .orElseThrow();
            writer.start();
            int index = nodeIndex(env, node);
            Instant stopped = Instant.now();
            env.kube().faults().stopNode(index);
            try {
                Await.until(
                        "Progressing reason NodeNotReady (the grace time)",
                        Duration.ofMinutes(3),
                        () -> EtcdStatus.condition(env.cluster(ns, "nl"), "Progressing")
                                .filter(c -> "NodeNotReady".equals(c.get("reason")))
                                .isPresent());
                long notReadySeen = Duration.between(stopped, Instant.now()).toSeconds();
                Await.until(name + " replaced on a Ready node, its Pod gone, READY=3", Duration.ofMinutes(6), () -> {
                    Set<String> names = env.members(ns, "nl").stream()
                            .map(m -> m.getMetadata().getName())
                            .collect(Collectors.toSet());
                    List<Pod> pods = env.memberPods(ns, "nl");
                    return !names.contains(name)
                            && names.size() == 3
                            && WritingClient.ready(env, ns, "nl") == 3
                            && pods.size() == 3
                            && pods.stream()
                                    .noneMatch(p -> node.equals(p.getSpec().getNodeName()))
                            && env.client()
                                            .pods()
                                            .inNamespace(ns)
                                            .withName(name)
                                            .get()
                                    == null;
                });
                System.out.printf(
                        "node loss: node %s stopped under member %s; NodeNotReady reported after %d s; back to "
                                + "READY=3 with a new member on another node after %d s; %s%n",
                        node,
                        name,
                        notReadySeen,
                        Duration.between(stopped, Instant.now()).toSeconds(),
                        writer.summary());
            } finally {
                env.kube().faults().startNode(index);
            }
            writer.stop();
            assertThat(writer.unreadAcknowledged(dir))
                    .as("acknowledged keys missing after the repair")
                    .isEmpty();
            assertThat(writer.failed())
                    .as("writes not acknowledged within 30 s")
                    .isZero();
            assertThat(E2eEnvironment.status(env.cluster(ns, "nl")).get("clusterID"))
                    .isEqualTo(clusterId);
        }
        List<String> reasons = env.client().v1().events().inNamespace(ns).list().getItems().stream()
                .map(e -> e.getReason())
                .filter(Objects::nonNull)
                .toList();
        assertThat(reasons).contains("NodeNotReady", "PodForceDeleted", "LearnerPromoted");
    }

    /**
     * Exactly one member on {@code node}, so that stopping it leaves a quorum (preferred anti-affinity alone may put
     * two on one node): two members formed with that node cordoned, the third joined with only that node open.
     */
    private static void formWithOneMemberOn(E2eEnvironment env, String ns, String node) {
        List<String> others = env.kube().nodes().stream()
                .map(SimulatedNode::name)
                .filter(n -> !n.equals(node))
                .toList();
        try {
            cordon(env, List.of(node), true);
            env.createCluster(ns, "nl", Map.of("replicas", 2, "version", "3.5.16", "storage", Map.of("size", "256Mi")));
            env.awaitReady(ns, "nl", 2, Duration.ofMinutes(5));
            cordon(env, others, true);
            cordon(env, List.of(node), false);
            env.patchSpec(ns, "nl", "{\"replicas\":3}");
            env.awaitReady(ns, "nl", 3, Duration.ofMinutes(5));
        } finally {
            cordon(env, env.kube().nodes().stream().map(SimulatedNode::name).toList(), false);
        }
        Await.until(
                "Progressing=False/Reconciled",
                Duration.ofMinutes(3),
                () -> EtcdStatus.condition(env.cluster(ns, "nl"), "Progressing")
                        .filter(c -> "Reconciled".equals(c.get("reason")))
                        .isPresent());
    }

    private static void cordon(E2eEnvironment env, List<String> nodes, boolean unschedulable) {
        nodes.forEach(n -> env.client().nodes().withName(n).edit(node -> {
            node.getSpec().setUnschedulable(unschedulable ? Boolean.TRUE : null);
            return node;
        }));
    }

    /** A node that runs neither the operator's Pod nor the writing client: stopping it must take down only a member. */
    private static String target(E2eEnvironment env, String ns) {
        Set<String> spared = env.client().pods().inAnyNamespace().list().getItems().stream()
                .filter(p -> OperatorPod.NAMESPACE.equals(p.getMetadata().getNamespace())
                        || (ns.equals(p.getMetadata().getNamespace())
                                && p.getMetadata().getName().startsWith("writer-")))
                .map(p -> p.getSpec().getNodeName())
                .filter(Objects::nonNull)
                .collect(Collectors.toSet());
        return env.kube().nodes().stream()
                .map(SimulatedNode::name)
                .filter(n -> !spared.contains(n))
                .sorted()
                .reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no node free of the operator and the client: " + spared));
    }

    private static int nodeIndex(E2eEnvironment env, String node) {
        List<SimulatedNode> nodes = env.kube().nodes();
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).name().equals(node)) {
                return i;
            }
        }
        throw new AssertionError("no simulated node " + node);
    }
}
