package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.etcdoperator.localkube.node.SimulatedNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The node under one member of a 3-member PVC cluster stops (its containers die, its heartbeats stop). The node
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
    env.createCluster(ns, "nl", Map.of("replicas", 3, "version", "3.5.16", "storage", Map.of("size", "256Mi")));
    env.awaitReady(ns, "nl", 3, Duration.ofMinutes(5));
    Await.until("Progressing=False/Reconciled", Duration.ofMinutes(3), () -> EtcdStatus.condition(env.cluster(ns, "nl"),
        "Progressing").filter(c -> "Reconciled".equals(c.get("reason"))).isPresent());
    String clusterId = (String) E2eEnvironment.status(env.cluster(ns, "nl")).get("clusterID");
    Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "node-loss-");
    try (WritingClient writer = WritingClient.plaintext(env, ns, "nl").start()) {
      Pod victim = victim(env, ns);
      String node = victim.getSpec().getNodeName();
      int index = nodeIndex(env, node);
      Instant stopped = Instant.now();
      env.kube().faults().stopNode(index);
      try {
        Await.until("Progressing reason NodeNotReady (the grace time)", Duration.ofMinutes(3),
            () -> EtcdStatus.condition(env.cluster(ns, "nl"), "Progressing")
                .filter(c -> "NodeNotReady".equals(c.get("reason"))).isPresent());
        long notReadySeen = Duration.between(stopped, Instant.now()).toSeconds();
        String name = victim.getMetadata().getName();
        Await.until(name + " replaced on a Ready node, its Pod gone, READY=3", Duration.ofMinutes(6), () -> {
          Set<String> names = env.members(ns, "nl").stream().map(m -> m.getMetadata().getName())
              .collect(Collectors.toSet());
          List<Pod> pods = env.memberPods(ns, "nl");
          return !names.contains(name) && names.size() == 3 && WritingClient.ready(env, ns, "nl") == 3
              && pods.size() == 3 && pods.stream().noneMatch(p -> node.equals(p.getSpec().getNodeName()))
              && env.client().pods().inNamespace(ns).withName(name).get() == null;
        });
        System.out.printf("node loss: node %s stopped under member %s; NodeNotReady reported after %d s; back to "
            + "READY=3 with a new member on another node after %d s; %s%n", node, name, notReadySeen,
            Duration.between(stopped, Instant.now()).toSeconds(), writer.summary());
      } finally {
        env.kube().faults().startNode(index);
      }
      writer.stop();
      assertThat(writer.unreadAcknowledged(dir)).as("acknowledged keys missing after the repair").isEmpty();
      assertThat(writer.failed()).as("writes not acknowledged within 30 s").isZero();
    }
    assertThat(E2eEnvironment.status(env.cluster(ns, "nl")).get("clusterID")).isEqualTo(clusterId);
    List<String> reasons = env.client().v1().events().inNamespace(ns).list().getItems().stream()
        .map(e -> e.getReason()).filter(Objects::nonNull).toList();
    assertThat(reasons).contains("NodeNotReady", "PodForceDeleted", "LearnerPromoted");
  }

  /**
   * A member whose node runs neither the operator's Pod nor the writing client: stopping that node must take down
   * only the member.
   */
  private static Pod victim(E2eEnvironment env, String ns) {
    Set<String> spared = env.client().pods().inAnyNamespace().list().getItems().stream()
        .filter(p -> OperatorPod.NAMESPACE.equals(p.getMetadata().getNamespace())
            || (ns.equals(p.getMetadata().getNamespace()) && p.getMetadata().getName().startsWith("writer-")))
        .map(p -> p.getSpec().getNodeName()).filter(Objects::nonNull).collect(Collectors.toSet());
    Optional<Pod> victim = env.memberPods(ns, "nl").stream().filter(p -> !spared.contains(p.getSpec().getNodeName()))
        .sorted(java.util.Comparator.comparing(p -> p.getMetadata().getName())).findFirst();
    return victim.orElseThrow(() -> new AssertionError("every member shares a node with the operator or the client: "
        + spared));
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
