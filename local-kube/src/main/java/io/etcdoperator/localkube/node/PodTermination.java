package io.etcdoperator.localkube.node;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a Pod's containers stop: on deletion SIGTERM and SIGKILL after the grace period, all at once; when the node
 * goes down or the Pod is evicted SIGKILL. Each records the exit it causes, as the kubelet reports it.
 */
final class PodTermination {

    private PodTermination() {}

    /** The deletion's grace period, else the spec's, else the default 30 s. */
    static Duration gracePeriod(Pod pod) {
        Long seconds = pod.getMetadata().getDeletionGracePeriodSeconds();
        if (seconds == null) {
            seconds = pod.getSpec().getTerminationGracePeriodSeconds();
        }
        return Duration.ofSeconds(Objects.requireNonNullElse(seconds, 30L));
    }

    /** SIGKILL to every container; the node is down. They restart per policy once it is back. */
    static void killAll(List<ContainerSlot> slots) {
        for (ContainerSlot slot : slots) {
            slot.stopProbes();
            if (slot.running() && slot.process.alive()) {
                slot.process.kill();
            }
        }
    }

    /** Killed for good: every container ends with exit code 137 and none runs again. */
    static void evict(List<ContainerSlot> slots) {
        killAll(slots);
        for (ContainerSlot slot : slots) {
            if (slot.running()) {
                slot.recordExit(137, "Error", null);
                slot.process = null;
                slot.ready = false;
            }
            slot.done = true;
        }
    }

    /** Stops the running containers in parallel, each given {@code grace} between SIGTERM and SIGKILL. */
    static void terminate(List<ContainerSlot> slots, Duration grace) {
        List<Thread> stopping = new ArrayList<>();
        for (ContainerSlot slot : slots) {
            slot.stopProbes();
            if (slot.running()) {
                ContainerProcess process = slot.process;
                stopping.add(Thread.ofVirtual().start(() -> process.terminate(grace)));
            }
        }
        for (Thread stopper : stopping) {
            try {
                stopper.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (ContainerSlot slot : slots) {
            if (slot.running()) {
                slot.recordExit(slot.process.exitCode().orElse(137), null, null);
                slot.process = null;
                slot.done = true;
            }
        }
    }
}
