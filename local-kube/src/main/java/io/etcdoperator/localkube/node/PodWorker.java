package io.etcdoperator.localkube.node;

import io.etcdoperator.localkube.network.PodSandbox;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Runs one Pod on a node, like the kubelet's pod worker: steps it through its {@link PodLifecycle} on its own
 * thread, publishing the Pod's status as it changes. On deletion it stops the processes (SIGTERM, SIGKILL after
 * the grace period), releases everything and removes the object.
 */
final class PodWorker {

    private static final System.Logger LOG = System.getLogger(PodWorker.class.getName());
    private static final Duration TICK = Duration.ofMillis(200);

    private final SimulatedNode node;
    private final String namespace;
    private final String name;
    private final String uid;
    private final Path dir;
    private final List<ContainerSlot> initSlots;
    private final List<ContainerSlot> slots;
    private final List<ContainerSlot> allSlots;
    private final PodRuntime runtime;
    private final PodLifecycle lifecycle;
    private final PodStatusPatch status;
    private final Instant startTime = Instant.now();
    private final Thread thread;
    private volatile Pod pod;
    private volatile boolean deleting;
    private volatile boolean gone;
    private volatile boolean halted;
    /** Why the kubelet evicted the Pod, once it did: its containers are killed for good and it ends Failed. */
    private volatile String evicted;

    private boolean wake;

    PodWorker(SimulatedNode node, NodeFacilities facilities, Pod pod, boolean halted) {
        this.node = node;
        this.pod = pod;
        this.halted = halted;
        this.namespace = pod.getMetadata().getNamespace();
        this.name = pod.getMetadata().getName();
        this.uid = pod.getMetadata().getUid();
        this.dir = facilities.workDir().resolve("pods").resolve(namespace + "_" + name + "_" + uid);
        this.initSlots = slots(pod.getSpec().getInitContainers(), true);
        this.slots = slots(pod.getSpec().getContainers(), false);
        this.allSlots = Stream.concat(initSlots.stream(), slots.stream()).toList();
        this.runtime = new PodRuntime(node, facilities, () -> this.pod, dir, allSlots);
        this.lifecycle = new PodLifecycle(
                () -> this.pod,
                runtime,
                new ContainerRun(facilities, runtime, () -> this.pod, this::wake),
                initSlots,
                slots);
        this.status = new PodStatusPatch(facilities.client(), namespace, name, uid);
        this.thread = Thread.ofPlatform()
                .daemon()
                .name("pod-" + namespace + "-" + name)
                .unstarted(this::run);
    }

    private static List<ContainerSlot> slots(List<Container> containers, boolean init) {
        return Objects.requireNonNullElse(containers, List.<Container>of()).stream()
                .map(container -> new ContainerSlot(container, init))
                .toList();
    }

    void start() {
        thread.start();
    }

    String namespace() {
        return namespace;
    }

    String name() {
        return name;
    }

    String uid() {
        return uid;
    }

    Optional<String> ip() {
        PodSandbox current = runtime.sandbox();
        return current == null ? Optional.empty() : Optional.of(current.ip());
    }

    /** The latest object from the API; a deletionTimestamp starts termination. */
    void update(Pod latest) {
        pod = latest;
        if (latest.getMetadata().getDeletionTimestamp() != null) {
            deleting = true;
        }
        wake();
    }

    /** The object is gone (force-deleted): stop at once. */
    void gone() {
        gone = true;
        wake();
    }

    /** The node went down: its containers die now, and the worker restarts nothing until {@link #resume()}. */
    void halt() {
        halted = true;
        for (ContainerSlot slot : allSlots) {
            ContainerProcess process = slot.process;
            if (process != null) {
                process.kill();
            }
        }
        wake();
    }

    void resume() {
        halted = false;
        wake();
    }

    void wake() {
        synchronized (this) {
            wake = true;
            notifyAll();
        }
    }

    /** Stops the worker without touching the API: processes are killed and the sandbox released. */
    void shutdown() {
        thread.interrupt();
    }

    void join(Duration timeout) throws InterruptedException {
        thread.join(timeout);
    }

    private void run() {
        try {
            while (true) {
                if (halted) {
                    PodTermination.killAll(allSlots);
                } else if (gone || deleting) {
                    terminate();
                    return;
                } else {
                    lifecycle.step(evicted != null);
                    publish();
                }
                sleep();
            }
        } catch (InterruptedException e) {
            PodTermination.killAll(allSlots);
        } catch (RuntimeException | Error e) {
            LOG.log(Level.ERROR, "pod worker for " + namespace + "/" + name + " failed", e);
            PodTermination.killAll(allSlots);
        } finally {
            runtime.teardown();
            node.forget(this);
        }
    }

    private void sleep() throws InterruptedException {
        synchronized (this) {
            if (!wake) {
                wait(TICK.toMillis());
            }
            wake = false;
        }
    }

    private void publish() {
        PodSandbox current = runtime.sandbox();
        if (current == null) {
            return;
        }
        PodStatusReport.PodView view = new PodStatusReport.PodView(
                current.ip(),
                node.hostIp(),
                startTime,
                lifecycle.initFailed(),
                lifecycle.initDone(),
                PodStatusPatch.qosClass(pod),
                Optional.ofNullable(evicted));
        if (!status.publish(view, initSlots, slots)) {
            gone = true;
        }
    }

    private void terminate() {
        PodTermination.terminate(allSlots, gone ? Duration.ZERO : PodTermination.gracePeriod(pod));
        if (!gone) {
            node.deletePod(namespace, name, uid);
        }
    }

    /** Runs a command inside a container's view of the Pod (its network, mounts and environment). */
    int exec(Container container, List<String> command, Duration timeout) {
        return runtime.exec(container, command, timeout);
    }

    // faults

    void killContainers() {
        for (ContainerSlot slot : slots) {
            ContainerProcess process = slot.process;
            if (process != null) {
                process.kill();
            }
        }
        wake();
    }

    /** As the kubelet under node pressure: containers killed, never restarted, phase Failed, reason Evicted. */
    void evict(String message) {
        evicted = message;
        wake();
    }

    void signalContainers(String signal) {
        for (ContainerSlot slot : allSlots) {
            ContainerProcess process = slot.process;
            if (process != null) {
                process.signal(signal);
            }
        }
    }

    void wipeVolume(String volumeName) {
        PodVolumes current = runtime.volumes();
        if (current == null) {
            throw new IllegalStateException(namespace + "/" + name + " has no volumes yet");
        }
        current.wipe(volumeName);
    }

    PodSandbox sandbox() {
        PodSandbox current = runtime.sandbox();
        if (current == null) {
            throw new IllegalStateException(namespace + "/" + name + " has no sandbox yet");
        }
        return current;
    }

    /** The log of a container's current (or, with {@code previous}, the instance before) run. */
    Optional<Path> log(String container, boolean previous) {
        return ContainerLogs.find(dir, container, previous);
    }

    /** True while the container's current instance runs; a follow stops once it is not. */
    boolean running(String container) {
        return allSlots.stream()
                .anyMatch(slot -> slot.name().equals(container) && slot.process != null && slot.process.alive());
    }

    Container container(String containerName) {
        return allSlots.stream()
                .filter(slot -> slot.name().equals(containerName))
                .findFirst()
                .map(slot -> slot.spec)
                .orElseThrow(() -> new IllegalArgumentException(
                        "pod " + namespace + "/" + name + " has no container " + containerName));
    }

    List<String> containerNames() {
        return allSlots.stream().map(ContainerSlot::name).toList();
    }
}
