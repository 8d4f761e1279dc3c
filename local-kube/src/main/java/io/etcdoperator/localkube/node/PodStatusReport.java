package io.etcdoperator.localkube.node;

import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Derives a Pod's status from its containers the way the kubelet does: phase, the four conditions (keeping each
 * one's last transition time), and container statuses with state, lastState, ready and restartCount.
 */
final class PodStatusReport {

    private record Transition(String status, String time) {}

    private final Map<String, Transition> transitions = new HashMap<>();

    /** What the worker knows about the Pod apart from its containers. */
    record PodView(
            String podIp,
            String hostIp,
            Instant startTime,
            boolean initFailed,
            boolean initDone,
            String qosClass,
            Optional<String> evicted) {

        PodView(String podIp, String hostIp, Instant startTime, boolean initFailed, boolean initDone, String qosClass) {
            this(podIp, hostIp, startTime, initFailed, initDone, qosClass, Optional.empty());
        }
    }

    PodStatus build(PodView view, List<ContainerSlot> initSlots, List<ContainerSlot> slots) {
        String phase = phase(view, slots);
        boolean terminal = phase.equals("Succeeded") || phase.equals("Failed");
        boolean containersReady = !terminal && slots.stream().allMatch(ContainerSlot::reportedReady);
        String notReadyReason = terminal ? "PodCompleted" : "ContainersNotReady";
        List<PodCondition> conditions = List.of(
                condition(
                        "Initialized",
                        view.initDone(),
                        terminal && !view.initDone() ? "PodCompleted" : "ContainersNotInitialized"),
                condition("Ready", containersReady, notReadyReason),
                condition("ContainersReady", containersReady, notReadyReason),
                condition("PodScheduled", true, null));
        PodStatusBuilder status = new PodStatusBuilder()
                .withPhase(phase)
                .withConditions(conditions)
                .withHostIP(view.hostIp())
                .withStartTime(KubeTime.format(view.startTime()))
                .withQosClass(view.qosClass())
                .withContainerStatuses(
                        slots.stream().map(PodStatusReport::status).toList())
                .withInitContainerStatuses(
                        initSlots.stream().map(PodStatusReport::status).toList());
        view.evicted().ifPresent(message -> status.withReason("Evicted").withMessage(message));
        if (view.podIp() != null) {
            status.withPodIP(view.podIp()).withPodIPs(new PodIP(view.podIp()));
        }
        return status.build();
    }

    static String phase(PodView view, List<ContainerSlot> slots) {
        if (view.initFailed() || view.evicted().isPresent()) {
            return "Failed";
        }
        if (!view.initDone() || slots.stream().anyMatch(slot -> !slot.everRan)) {
            return "Pending";
        }
        if (slots.stream().allMatch(slot -> slot.done && !slot.running())) {
            return slots.stream().allMatch(ContainerSlot::succeeded) ? "Succeeded" : "Failed";
        }
        return "Running";
    }

    private PodCondition condition(String type, boolean value, String falseReason) {
        String status = value ? "True" : "False";
        Transition previous = transitions.get(type);
        if (previous == null || !previous.status().equals(status)) {
            previous = new Transition(status, KubeTime.format(Instant.now()));
            transitions.put(type, previous);
        }
        return new PodConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(value ? null : falseReason)
                .withLastTransitionTime(previous.time())
                .build();
    }

    private static ContainerStatus status(ContainerSlot slot) {
        ContainerState state;
        if (slot.running()) {
            state = new ContainerStateBuilder()
                    .withNewRunning()
                    .withStartedAt(KubeTime.format(slot.process.startedAt()))
                    .endRunning()
                    .build();
        } else if (slot.finalState().isPresent()) {
            state = new ContainerStateBuilder()
                    .withTerminated(slot.finalState().get())
                    .build();
        } else {
            state = new ContainerStateBuilder()
                    .withNewWaiting()
                    .withReason(slot.waitingReason)
                    .withMessage(slot.waitingMessage)
                    .endWaiting()
                    .build();
        }
        List<ContainerState> last = new ArrayList<>();
        slot.lastState()
                .ifPresent(terminated -> last.add(
                        new ContainerStateBuilder().withTerminated(terminated).build()));
        return new ContainerStatusBuilder()
                .withName(slot.name())
                .withImage(slot.spec.getImage())
                .withImageID(slot.everRan ? slot.imageID : "")
                .withContainerID(slot.running() ? "local://" + slot.process.pid() : null)
                .withState(state)
                .withLastState(last.isEmpty() ? new ContainerState() : last.getFirst())
                .withReady(slot.init ? slot.succeeded() : slot.reportedReady())
                .withRestartCount(slot.restartCount)
                .withStarted(slot.init ? null : slot.running() && slot.started)
                .build();
    }
}
