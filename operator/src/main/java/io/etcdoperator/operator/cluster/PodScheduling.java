package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.operator.planner.ObservedMember;
import io.etcdoperator.operator.resources.MemberPodStatus;
import io.etcdoperator.operator.resources.MemberPods;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
        if (pod == null
                || pod.getMetadata().getDeletionTimestamp() != null
                || pod.getStatus() == null
                || !"Pending".equals(pod.getStatus().getPhase())
                || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getConditions().stream()
                .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()))
                .findFirst()
                .map(c -> new ObservedMember.Unrunnable(
                        c.getReason() + ": " + c.getMessage(),
                        Instant.parse(Optional.ofNullable(c.getLastTransitionTime())
                                .orElse(pod.getMetadata().getCreationTimestamp())),
                        allowed));
    }

    /**
     * A Ready Pod: since the later of its Ready transition and its etcd container's current start (a restart between
     * two status reports leaves Ready as it was), and whether its last run was OOM-killed. A missing time is long ago.
     */
    static Optional<ObservedMember.ReadyPod> readyPod(Pod pod) {
        if (pod == null || !MemberPodStatus.ready(pod)) {
            return Optional.empty();
        }
        Instant ready = pod.getStatus().getConditions().stream()
                .filter(c -> "Ready".equals(c.getType()))
                .findFirst()
                .map(c -> time(c.getLastTransitionTime()))
                .orElse(Instant.MIN);
        Optional<ContainerStatus> etcd = Optional.ofNullable(pod.getStatus().getContainerStatuses()).stream()
                .flatMap(List::stream)
                .filter(c -> MemberPods.CONTAINER.equals(c.getName()))
                .findFirst();
        Instant started = etcd.map(ContainerStatus::getState)
                .map(ContainerState::getRunning)
                .map(r -> time(r.getStartedAt()))
                .orElse(Instant.MIN);
        boolean oomKilled = etcd.map(ContainerStatus::getLastState)
                .map(ContainerState::getTerminated)
                .filter(t -> "OOMKilled".equals(t.getReason()))
                .isPresent();
        return Optional.of(new ObservedMember.ReadyPod(ready.isAfter(started) ? ready : started, oomKilled));
    }

    private static Instant time(String timestamp) {
        return timestamp == null ? Instant.MIN : Instant.parse(timestamp);
    }

    static Duration progressDeadline(EtcdCluster cluster) {
        Integer seconds = cluster.getSpec().getProgressDeadlineSeconds();
        return Duration.ofSeconds(seconds == null ? 600 : seconds);
    }
}
