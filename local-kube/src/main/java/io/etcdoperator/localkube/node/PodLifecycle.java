package io.etcdoperator.localkube.node;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The stages a Pod's worker steps it through: sandbox, volumes, the init containers one at a time in order, then
 * the containers until all are done. Each step returns the stage to be in next; eviction ends it from any stage.
 */
final class PodLifecycle {

    private enum Stage {
        SANDBOX,
        VOLUMES,
        INIT,
        MAIN,
        FINISHED
    }

    private final Supplier<Pod> pod;
    private final PodRuntime runtime;
    private final ContainerRun run;
    private final List<ContainerSlot> initSlots;
    private final List<ContainerSlot> slots;
    private final List<ContainerSlot> allSlots;
    private Stage stage = Stage.SANDBOX;
    private int initIndex;
    private boolean initFailed;
    private Instant nextVolumeAttempt = Instant.EPOCH;

    PodLifecycle(
            Supplier<Pod> pod,
            PodRuntime runtime,
            ContainerRun run,
            List<ContainerSlot> initSlots,
            List<ContainerSlot> slots) {
        this.pod = pod;
        this.runtime = runtime;
        this.run = run;
        this.initSlots = initSlots;
        this.slots = slots;
        this.allSlots = Stream.concat(initSlots.stream(), slots.stream()).toList();
    }

    /** An init container failed for good: the Pod ends Failed. */
    boolean initFailed() {
        return initFailed;
    }

    /** The Initialized condition: past the init containers, or finished without one failing. */
    boolean initDone() {
        return stage == Stage.MAIN || (stage == Stage.FINISHED && !initFailed);
    }

    void step(boolean evicted) {
        if (evicted && stage != Stage.FINISHED) {
            PodTermination.evict(allSlots);
            stage = Stage.FINISHED;
            return;
        }
        if (stage == Stage.INIT || stage == Stage.MAIN) {
            runtime.refreshDownward();
        }
        stage = switch (stage) {
            case SANDBOX -> createSandbox();
            case VOLUMES -> prepareVolumes();
            case INIT -> runInitContainer();
            case MAIN -> runContainers();
            // terminal: processes are gone, the Pod waits for deletion
            case FINISHED -> Stage.FINISHED;
        };
    }

    private Stage createSandbox() {
        runtime.createSandbox();
        return prepareVolumes();
    }

    private Stage prepareVolumes() {
        if (Instant.now().isBefore(nextVolumeAttempt)) {
            return Stage.VOLUMES;
        }
        try {
            runtime.prepareVolumes();
            return initSlots.isEmpty() ? Stage.MAIN : Stage.INIT;
        } catch (VolumeNotReady e) {
            nextVolumeAttempt = Instant.now().plus(ContainerRun.RETRY);
            allSlots.forEach(slot -> slot.waitingMessage = "volumes not ready: " + e.getMessage());
            return Stage.VOLUMES;
        }
    }

    private Stage runInitContainer() {
        ContainerSlot slot = initSlots.get(initIndex);
        String policy = "Never".equals(restartPolicy()) ? "Never" : "OnFailure";
        run.drive(slot, policy);
        if (slot.done && !slot.running()) {
            if (!slot.succeeded()) {
                initFailed = true;
                return Stage.FINISHED;
            }
            initIndex++;
            if (initIndex == initSlots.size()) {
                return Stage.MAIN;
            }
        }
        return Stage.INIT;
    }

    private Stage runContainers() {
        slots.forEach(slot -> run.drive(slot, restartPolicy()));
        return slots.stream().allMatch(slot -> slot.done && !slot.running()) ? Stage.FINISHED : Stage.MAIN;
    }

    private String restartPolicy() {
        return Objects.requireNonNullElse(pod.get().getSpec().getRestartPolicy(), "Always");
    }
}
