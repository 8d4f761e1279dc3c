package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.operator.planner.ObservedMember;
import io.etcdoperator.operator.resources.MemberPods;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether a member's Pod can run: the scheduler's verdict, how long the cluster lets it wait, and since when it runs
 * Ready.
 */
final class PodScheduling {

  private PodScheduling() {}

  /**
   * A Pod the scheduler cannot place (no node fits, its volume is bound to a node that is gone, its claim is not
   * bound): since the PodScheduled condition turned False. An image that cannot be pulled is not this: a new member
   * would meet it too.
   */
  static Optional<ObservedMember.Unrunnable> unrunnable(Pod pod, Duration allowed) {
    if (pod == null || pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null
        || !"Pending".equals(pod.getStatus().getPhase()) || pod.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return pod.getStatus().getConditions().stream()
        .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()))
        .findFirst()
        .map(c -> new ObservedMember.Unrunnable(c.getReason() + ": " + c.getMessage(),
            Instant.parse(Optional.ofNullable(c.getLastTransitionTime())
                .orElse(pod.getMetadata().getCreationTimestamp())), allowed));
  }

  /** When a Ready Pod became Ready (long ago when the kubelet gave no time). */
  static Optional<Instant> readySince(Pod pod) {
    return Optional.ofNullable(pod).filter(MemberPods::ready).flatMap(p -> p.getStatus().getConditions().stream()
        .filter(c -> "Ready".equals(c.getType())).findFirst())
        .map(c -> c.getLastTransitionTime() == null ? Instant.MIN : Instant.parse(c.getLastTransitionTime()));
  }

  static Duration progressDeadline(EtcdCluster cluster) {
    Integer seconds = cluster.getSpec().getProgressDeadlineSeconds();
    return Duration.ofSeconds(seconds == null ? 600 : seconds);
  }
}
