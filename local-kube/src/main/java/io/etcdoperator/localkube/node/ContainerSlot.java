package io.etcdoperator.localkube.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateTerminatedBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One container of a Pod across its restarts: the current process if any, past terminations, the restart
 * back-off and what its probes last said. Only the Pod's worker thread changes it, except the probe results.
 */
final class ContainerSlot {

    final Container spec;
    final boolean init;
    int restartCount;
    int failureRun;
    int imagePullFailures;
    boolean everRan;
    /** What the image pull gave: {@code local://<image>} from the catalogue, repository@digest from a registry. */
    String imageID = "";

    boolean done;
    volatile ContainerProcess process;
    /** The runc run of the current process, for exec probes; null for a host-process container. */
    volatile RuncContainer runc;

    Instant nextStart = Instant.EPOCH;
    String waitingReason = "ContainerCreating";
    String waitingMessage;
    final List<ContainerStateTerminated> terminations = new ArrayList<>();
    private final List<Thread> probes = new ArrayList<>();
    volatile boolean ready;
    volatile boolean started;
    volatile boolean unhealthy;
    volatile String unhealthyMessage;

    ContainerSlot(Container spec, boolean init) {
        this.spec = spec;
        this.init = init;
    }

    String name() {
        return spec.getName();
    }

    /** Takes a pull's outcome: true when there is an image to start, which also ends a run of failed pulls. */
    boolean pulled(ImagePull pull) {
        if (pull.image().isEmpty()) {
            return false;
        }
        imagePullFailures = 0;
        imageID = pull.imageID();
        return true;
    }

    boolean running() {
        return process != null;
    }

    boolean succeeded() {
        return done && !terminations.isEmpty() && terminations.getLast().getExitCode() == 0;
    }

    /** The termination shown as {@code state}: the last one, once the container will not run again. */
    Optional<ContainerStateTerminated> finalState() {
        return done && process == null && !terminations.isEmpty()
                ? Optional.of(terminations.getLast())
                : Optional.empty();
    }

    /** The termination shown as {@code lastState}: the one before the current instance or final state. */
    Optional<ContainerStateTerminated> lastState() {
        int index = terminations.size() - (finalState().isPresent() ? 2 : 1);
        return index >= 0 ? Optional.of(terminations.get(index)) : Optional.empty();
    }

    ContainerStateTerminated recordExit(int exitCode, String reason, String message) {
        Instant startedAt = process == null ? Instant.now() : process.startedAt();
        ContainerStateTerminated terminated = new ContainerStateTerminatedBuilder()
                .withExitCode(exitCode)
                .withReason(reason != null ? reason : exitCode == 0 ? "Completed" : "Error")
                .withMessage(message)
                .withStartedAt(KubeTime.format(startedAt))
                .withFinishedAt(KubeTime.format(Instant.now()))
                .withContainerID(process == null ? null : "local://" + process.pid())
                .build();
        terminations.add(terminated);
        if (terminations.size() > 2) {
            terminations.removeFirst();
        }
        return terminated;
    }

    Duration uptime() {
        return process == null ? Duration.ZERO : Duration.between(process.startedAt(), Instant.now());
    }

    Optional<Probe> readinessProbe() {
        return Optional.ofNullable(spec.getReadinessProbe());
    }

    Optional<Probe> livenessProbe() {
        return Optional.ofNullable(spec.getLivenessProbe());
    }

    Optional<Probe> startupProbe() {
        return Optional.ofNullable(spec.getStartupProbe());
    }

    /** Ready as the kubelet reports it: running, started, and the readiness probe (if any) passing. */
    boolean reportedReady() {
        if (process == null || !started) {
            return false;
        }
        return readinessProbe().isEmpty() || ready;
    }

    void addProbe(Thread thread) {
        probes.add(thread);
    }

    void stopProbes() {
        probes.forEach(Thread::interrupt);
        probes.clear();
    }
}
