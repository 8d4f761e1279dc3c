package io.etcdoperator.localkube.node;

import io.etcdoperator.localkube.network.HostCommand;
import io.etcdoperator.localkube.network.HostsEntries;
import io.etcdoperator.localkube.network.PodSandbox;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs one Pod on a node, like the kubelet's pod worker: sandbox (IP, hosts file), volumes, init containers in
 * order, then the containers with probes and restarts, publishing the Pod's status as it changes. On deletion it
 * stops the processes (SIGTERM, SIGKILL after the grace period), releases everything and removes the object.
 */
final class PodWorker {

    private static final System.Logger LOG = System.getLogger(PodWorker.class.getName());
    private static final Duration TICK = Duration.ofMillis(200);
    private static final Duration PULL_ATTEMPT = Duration.ofSeconds(2);
    private static final Duration RETRY = Duration.ofSeconds(1);

    private enum Stage {
        SANDBOX,
        VOLUMES,
        INIT,
        MAIN,
        FINISHED
    }

    private final SimulatedNode node;
    private final NodeFacilities facilities;
    private final String namespace;
    private final String name;
    private final String uid;
    private final Path dir;
    private final List<ContainerSlot> initSlots;
    private final List<ContainerSlot> slots;
    private final PodStatusReport report = new PodStatusReport();
    private final Instant startTime = Instant.now();
    private final Thread thread;
    private volatile Pod pod;
    private volatile boolean deleting;
    private volatile boolean gone;
    private volatile boolean halted;
    private volatile PodSandbox sandbox;
    private volatile PodVolumes volumes;
    private ContainerEnvironment environment;
    private Map<String, Path> volumePaths = Map.of();
    private Stage stage = Stage.SANDBOX;
    private int initIndex;
    private boolean initFailed;
    /** Why the kubelet evicted the Pod, once it did: its containers are killed for good and it ends Failed. */
    private volatile String evicted;

    private Instant nextVolumeAttempt = Instant.EPOCH;
    private PodStatus published;
    private boolean wake;
    /** The labels and annotations the downwardAPI volumes were last written from. */
    private Map<String, String> downwardLabels;

    private Map<String, String> downwardAnnotations;

    PodWorker(SimulatedNode node, NodeFacilities facilities, Pod pod, boolean halted) {
        this.node = node;
        this.facilities = facilities;
        this.pod = pod;
        this.halted = halted;
        this.namespace = pod.getMetadata().getNamespace();
        this.name = pod.getMetadata().getName();
        this.uid = pod.getMetadata().getUid();
        this.dir = facilities.workDir().resolve("pods").resolve(namespace + "_" + name + "_" + uid);
        this.initSlots = slots(pod.getSpec().getInitContainers(), true);
        this.slots = slots(pod.getSpec().getContainers(), false);
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
        PodSandbox current = sandbox;
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
        for (ContainerSlot slot : allSlots()) {
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
                    killAll();
                } else if (gone || deleting) {
                    terminate();
                    return;
                } else {
                    step();
                    publish();
                }
                sleep();
            }
        } catch (InterruptedException e) {
            killAll();
        } catch (RuntimeException | Error e) {
            LOG.log(Level.ERROR, "pod worker for " + namespace + "/" + name + " failed", e);
            killAll();
        } finally {
            teardown();
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

    private void step() {
        if (evicted != null && stage != Stage.FINISHED) {
            killAll();
            for (ContainerSlot slot : allSlots()) {
                if (slot.running()) {
                    slot.recordExit(137, "Error", null);
                    slot.process = null;
                    slot.ready = false;
                }
                slot.done = true;
            }
            stage = Stage.FINISHED;
            return;
        }
        if (stage == Stage.INIT || stage == Stage.MAIN) {
            refreshDownward();
        }
        switch (stage) {
            case SANDBOX -> createSandbox();
            case VOLUMES -> prepareVolumes();
            case INIT -> runInitContainer();
            case MAIN -> {
                slots.forEach(slot -> drive(slot, restartPolicy()));
                if (slots.stream().allMatch(slot -> slot.done && !slot.running())) {
                    stage = Stage.FINISHED;
                }
            }
            case FINISHED -> {
                // terminal: processes are gone, the Pod waits for deletion
            }
        }
    }

    private void createSandbox() {
        sandbox = facilities.network().allocate(namespace + "-" + name);
        facilities
                .hosts()
                .register(
                        uid,
                        sandbox.hostsFile(),
                        HostsEntries.own(pod, sandbox.ip(), facilities.hosts().clusterDomain()));
        facilities.hosts().flush();
        Map<String, String> services = Map.of();
        List<String> enter = sandbox.enter();
        if (node.kubernetesService().isPresent()
                && enter.size() > 2
                && enter.subList(0, 2).equals(List.of("ip", "netns"))) {
            List<String> rule = new ArrayList<>(sandbox.enter());
            rule.addAll(node.kubernetesService().get().dnatRule());
            if (HostCommand.attempt(rule).exitCode() == 0) {
                services = KubernetesServiceRelay.environment();
            }
        }
        environment = new ContainerEnvironment(facilities.client(), pod, sandbox.ip(), node.hostIp(), services);
        volumes = new PodVolumes(facilities.client(), pod, dir, environment);
        downwardLabels = pod.getMetadata().getLabels();
        downwardAnnotations = pod.getMetadata().getAnnotations();
        stage = Stage.VOLUMES;
        prepareVolumes();
    }

    private void refreshDownward() {
        Pod latest = pod;
        Map<String, String> labels = latest.getMetadata().getLabels();
        Map<String, String> annotations = latest.getMetadata().getAnnotations();
        if (Objects.equals(labels, downwardLabels) && Objects.equals(annotations, downwardAnnotations)) {
            return;
        }
        volumes.refreshDownward(new ContainerEnvironment(facilities.client(), latest, sandbox.ip(), node.hostIp()));
        downwardLabels = labels;
        downwardAnnotations = annotations;
    }

    private void prepareVolumes() {
        if (Instant.now().isBefore(nextVolumeAttempt)) {
            return;
        }
        try {
            volumePaths = volumes.prepare();
            stage = initSlots.isEmpty() ? Stage.MAIN : Stage.INIT;
        } catch (VolumeNotReady e) {
            nextVolumeAttempt = Instant.now().plus(RETRY);
            allSlots().forEach(slot -> slot.waitingMessage = "volumes not ready: " + e.getMessage());
        }
    }

    private void runInitContainer() {
        ContainerSlot slot = initSlots.get(initIndex);
        String policy = "Never".equals(restartPolicy()) ? "Never" : "OnFailure";
        drive(slot, policy);
        if (slot.done && !slot.running()) {
            if (slot.succeeded()) {
                initIndex++;
                if (initIndex == initSlots.size()) {
                    stage = Stage.MAIN;
                }
            } else {
                initFailed = true;
                stage = Stage.FINISHED;
            }
        }
    }

    private String restartPolicy() {
        return Objects.requireNonNullElse(pod.getSpec().getRestartPolicy(), "Always");
    }

    /** Moves one container along: notice an exit or a failed liveness probe, restart after back-off, start. */
    private void drive(ContainerSlot slot, String policy) {
        if (slot.running()) {
            if (slot.unhealthy && slot.process.alive()) {
                LOG.log(
                        Level.INFO,
                        "{0}/{1}: container {2} {3}; restarting it",
                        namespace,
                        name,
                        slot.name(),
                        slot.unhealthyMessage);
                slot.process.terminate(gracePeriod());
            }
            if (!slot.process.alive()) {
                finishRun(slot, policy);
            }
        }
        if (!slot.running() && !slot.done && !Instant.now().isBefore(slot.nextStart)) {
            startRun(slot, policy);
        }
    }

    private void finishRun(ContainerSlot slot, String policy) {
        int exitCode = slot.process.exitCode().orElse(137);
        slot.stopProbes();
        String reason = slot.runc != null && slot.runc.oomKilled() ? "OOMKilled" : null;
        slot.recordExit(
                exitCode,
                reason,
                slot.unhealthy
                        ? slot.unhealthyMessage
                        : TerminationMessage.read(
                                dir, slot.spec, exitCode, ContainerLogs.find(dir, slot.name(), false)));
        Duration uptime = slot.uptime();
        slot.process = null;
        slot.ready = false;
        slot.unhealthy = false;
        afterExit(slot, policy, exitCode, uptime);
    }

    private void afterExit(ContainerSlot slot, String policy, int exitCode, Duration uptime) {
        boolean restart = switch (policy) {
            case "Always" -> !slot.init || exitCode != 0;
            case "OnFailure" -> exitCode != 0;
            default -> false;
        };
        if (!restart) {
            slot.done = true;
            return;
        }
        if (facilities.backOff().resetsAfter(uptime)) {
            slot.failureRun = 0;
        }
        slot.failureRun++;
        Duration delay = facilities.backOff().delayBefore(slot.failureRun);
        slot.nextStart = Instant.now().plus(delay);
        slot.waitingReason = delay.isZero() ? "ContainerCreating" : "CrashLoopBackOff";
        slot.waitingMessage = delay.isZero()
                ? null
                : "back-off " + delay.toSeconds() + "s restarting failed container=" + slot.name() + " pod=" + name
                        + "_" + namespace + "(" + uid + ")";
    }

    private void startRun(ContainerSlot slot, String policy) {
        ImagePull pull = facilities.images().pull(slot.spec.getImage());
        Optional<ImageCatalogue.Image> image = pull.image();
        if (!slot.pulled(pull)) {
            imagePullFailed(slot, pull.failure());
            return;
        }
        Map<String, String> env;
        try {
            env = environment.resolve(slot.spec);
        } catch (VolumeNotReady e) {
            slot.waitingReason = "CreateContainerConfigError";
            slot.waitingMessage = e.getMessage();
            slot.nextStart = Instant.now().plus(RETRY);
            return;
        }
        List<String> command = expand(slot.spec.getCommand(), env);
        List<String> args = expand(slot.spec.getArgs(), env);
        Optional<List<String>> program = facilities
                .images()
                .commandLine(
                        image.get(),
                        command,
                        args,
                        Objects.requireNonNullElse(slot.spec.getVolumeMounts(), List.<VolumeMount>of()).stream()
                                .map(mount -> Path.of(mount.getMountPath()))
                                .toList());
        if (slot.everRan) {
            slot.restartCount++;
        }
        slot.everRan = true;
        if (program.isEmpty()) {
            slot.recordExit(
                    128,
                    "StartError",
                    "executable not found in image " + slot.spec.getImage() + ": "
                            + (command.isEmpty() ? "(entrypoint)" : command.getFirst()));
            afterExit(slot, policy, 128, Duration.ZERO);
            return;
        }
        Map<String, String> processEnv = new LinkedHashMap<>(env);
        processEnv.putIfAbsent(
                "HOSTNAME", Objects.requireNonNullElse(pod.getSpec().getHostname(), name));
        List<ContainerLaunch.Mount> mounts = mounts(slot.spec);
        mounts.add(TerminationMessage.prepare(dir, slot.spec));
        if (image.get().rootfs().isPresent()) {
            ContainerRootfs rootfs = image.get().rootfs().get();
            ContainerSecurity security;
            try {
                security = ContainerSecurity.of(pod, slot.spec, rootfs.uid(), rootfs.gid());
            } catch (VolumeNotReady e) {
                slot.waitingReason = "CreateContainerConfigError";
                slot.waitingMessage = e.getMessage();
                slot.nextStart = Instant.now().plus(RETRY);
                return;
            }
            security.fsGroup().ifPresent(this::applyFsGroup);
            RuncContainer container = RuncContainer.prepare(
                    facilities.workDir().resolve("runc"),
                    dir.resolve("bundles").resolve(slot.name()),
                    uid.substring(0, Math.min(8, uid.length())) + "-" + slot.name() + "-" + slot.restartCount,
                    rootfs,
                    new RuncContainer.Spec(
                            program.get(),
                            processEnv,
                            slot.spec.getWorkingDir(),
                            processEnv.get("HOSTNAME"),
                            mounts,
                            sandbox.hostsFile(),
                            security,
                            ContainerResources.memoryLimit(slot.spec)));
            slot.runc = container;
            slot.process = ContainerProcess.start(
                    container.commandLine(sandbox, rootfs), Map.of(), ContainerLogs.next(dir, slot.name()));
            slot.process.afterExit(container::delete);
        } else {
            slot.runc = null;
            List<String> line = ContainerLaunch.commandLine(
                    sandbox, mounts, slot.spec.getWorkingDir(), program.get(), facilities.mountPoints());
            slot.process = ContainerProcess.start(line, processEnv, ContainerLogs.next(dir, slot.name()));
        }
        slot.waitingReason = null;
        slot.waitingMessage = null;
        slot.ready = false;
        slot.unhealthy = false;
        slot.started = slot.startupProbe().isEmpty();
        startProbes(slot);
        LOG.log(Level.DEBUG, "{0}/{1}: started {2} as pid {3}", namespace, name, slot.name(), slot.process.pid());
    }

    private void imagePullFailed(ContainerSlot slot, String failure) {
        if (!"ErrImagePull".equals(slot.waitingReason)) {
            slot.waitingReason = "ErrImagePull";
            slot.waitingMessage = failure;
            slot.nextStart = Instant.now().plus(PULL_ATTEMPT);
            return;
        }
        slot.imagePullFailures++;
        Duration delay = facilities.backOff().delayBefore(slot.imagePullFailures + 1);
        slot.waitingReason = "ImagePullBackOff";
        slot.waitingMessage = "Back-off pulling image \"" + slot.spec.getImage() + "\"";
        slot.nextStart = Instant.now().plus(delay);
    }

    private static List<String> expand(List<String> values, Map<String, String> env) {
        return Objects.requireNonNullElse(values, List.<String>of()).stream()
                .map(value -> VariableExpansion.expand(value, env))
                .toList();
    }

    private List<ContainerLaunch.Mount> mounts(Container container) {
        List<ContainerLaunch.Mount> mounts = new ArrayList<>();
        for (VolumeMount mount : Objects.requireNonNullElse(container.getVolumeMounts(), List.<VolumeMount>of())) {
            Path source = volumePaths.get(mount.getName());
            if (source == null) {
                throw new IllegalStateException(
                        "container " + container.getName() + " mounts unknown volume " + mount.getName());
            }
            if (mount.getSubPath() != null && !mount.getSubPath().isEmpty()) {
                source = source.resolve(mount.getSubPath());
            }
            mounts.add(new ContainerLaunch.Mount(
                    source, Path.of(mount.getMountPath()), Boolean.TRUE.equals(mount.getReadOnly())));
        }
        return mounts;
    }

    private void startProbes(ContainerSlot slot) {
        ContainerProcess instance = slot.process;
        ProbeAction.Exec exec = (command, timeout) -> exec(slot.spec, command, timeout);
        slot.startupProbe()
                .ifPresent(probe -> slot.addProbe(Thread.ofVirtual()
                        .start(new ProbeLoop(
                                ProbeLoop.Kind.STARTUP, probe, slot, instance, sandbox.ip(), exec, this::wake))));
        slot.readinessProbe()
                .ifPresent(probe -> slot.addProbe(Thread.ofVirtual()
                        .start(new ProbeLoop(
                                ProbeLoop.Kind.READINESS, probe, slot, instance, sandbox.ip(), exec, this::wake))));
        slot.livenessProbe()
                .ifPresent(probe -> slot.addProbe(Thread.ofVirtual()
                        .start(new ProbeLoop(
                                ProbeLoop.Kind.LIVENESS, probe, slot, instance, sandbox.ip(), exec, this::wake))));
    }

    /**
     * The kubelet's fsGroup: volumes belong to that group, group-writable, and new files inherit it (setgid dirs),
     * so a non-root container can use them.
     */
    private void applyFsGroup(long gid) {
        for (Path volume : volumePaths.values()) {
            HostCommand.attempt(List.of("chgrp", "-R", Long.toString(gid), volume.toString()));
            HostCommand.attempt(List.of("chmod", "-R", "g+rwX", volume.toString()));
            HostCommand.attempt(List.of("find", volume.toString(), "-type", "d", "-exec", "chmod", "g+s", "{}", "+"));
        }
    }

    /** Runs a command inside a container's view of the Pod (its network, mounts and environment). */
    int exec(Container container, List<String> command, Duration timeout) {
        Optional<RuncContainer> runc = allSlots().stream()
                .filter(slot -> slot.spec == container && slot.runc != null)
                .map(slot -> slot.runc)
                .findFirst();
        if (runc.isPresent()) {
            return await(
                    ContainerProcess.start(runc.get().execCommandLine(command), Map.of(), dir.resolve("logs/exec.log")),
                    timeout);
        }
        Map<String, String> env = environment.resolve(container);
        Optional<List<String>> program = facilities
                .images()
                .image(container.getImage())
                .flatMap(image -> facilities.images().commandLine(image, command, List.of()));
        if (program.isEmpty()) {
            return 127;
        }
        List<String> line = ContainerLaunch.commandLine(
                sandbox, mounts(container), container.getWorkingDir(), program.get(), facilities.mountPoints());
        return await(ContainerProcess.start(line, env, dir.resolve("logs/exec.log")), timeout);
    }

    private static int await(ContainerProcess process, Duration timeout) {
        try {
            if (!waitFor(process, timeout)) {
                process.kill();
                return -1;
            }
            return process.exitCode().orElse(-1);
        } catch (InterruptedException e) {
            process.kill();
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static boolean waitFor(ContainerProcess process, Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (process.alive()) {
            if (Instant.now().isAfter(deadline)) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        return true;
    }

    private Duration gracePeriod() {
        Long seconds = pod.getMetadata().getDeletionGracePeriodSeconds();
        if (seconds == null) {
            seconds = pod.getSpec().getTerminationGracePeriodSeconds();
        }
        return Duration.ofSeconds(Objects.requireNonNullElse(seconds, 30L));
    }

    private List<ContainerSlot> allSlots() {
        List<ContainerSlot> all = new ArrayList<>(initSlots);
        all.addAll(slots);
        return all;
    }

    private void publish() {
        if (sandbox == null) {
            return;
        }
        PodStatus status = report.build(
                new PodStatusReport.PodView(
                        sandbox.ip(),
                        node.hostIp(),
                        startTime,
                        initFailed,
                        stage == Stage.MAIN || (stage == Stage.FINISHED && !initFailed),
                        qosClass(),
                        Optional.ofNullable(evicted)),
                initSlots,
                slots);
        if (status.equals(published)) {
            return;
        }
        try {
            String patch = Serialization.asJson(Map.of("metadata", Map.of("uid", uid), "status", status));
            facilities
                    .client()
                    .pods()
                    .inNamespace(namespace)
                    .withName(name)
                    .subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
            published = status;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404 || e.getCode() == 409 || e.getCode() == 422) {
                LOG.log(Level.DEBUG, "{0}/{1} is gone or replaced; stopping", namespace, name);
                gone = true;
            } else {
                LOG.log(Level.WARNING, "cannot update the status of " + namespace + "/" + name, e);
            }
        }
    }

    private String qosClass() {
        return pod.getStatus() == null ? null : pod.getStatus().getQosClass();
    }

    /** SIGKILL to every container; the node is down. They restart per policy once it is back. */
    private void killAll() {
        for (ContainerSlot slot : allSlots()) {
            slot.stopProbes();
            if (slot.running() && slot.process.alive()) {
                slot.process.kill();
            }
        }
    }

    private void terminate() {
        Duration grace = gone ? Duration.ZERO : gracePeriod();
        List<Thread> stopping = new ArrayList<>();
        for (ContainerSlot slot : allSlots()) {
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
        for (ContainerSlot slot : allSlots()) {
            if (slot.running()) {
                slot.recordExit(slot.process.exitCode().orElse(137), null, null);
                slot.process = null;
                slot.done = true;
            }
        }
        if (!gone) {
            node.deletePod(namespace, name, uid);
        }
    }

    private void teardown() {
        facilities.hosts().unregister(uid);
        if (volumes != null) {
            volumes.close();
        }
        if (sandbox != null) {
            sandbox.close();
        }
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
        for (ContainerSlot slot : allSlots()) {
            ContainerProcess process = slot.process;
            if (process != null) {
                process.signal(signal);
            }
        }
    }

    void wipeVolume(String volumeName) {
        PodVolumes current = volumes;
        if (current == null) {
            throw new IllegalStateException(namespace + "/" + name + " has no volumes yet");
        }
        current.wipe(volumeName);
    }

    PodSandbox sandbox() {
        PodSandbox current = sandbox;
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
        return allSlots().stream()
                .anyMatch(slot -> slot.name().equals(container) && slot.process != null && slot.process.alive());
    }

    Container container(String containerName) {
        return allSlots().stream()
                .filter(slot -> slot.name().equals(containerName))
                .findFirst()
                .map(slot -> slot.spec)
                .orElseThrow(() -> new IllegalArgumentException(
                        "pod " + namespace + "/" + name + " has no container " + containerName));
    }

    List<String> containerNames() {
        return allSlots().stream().map(ContainerSlot::name).toList();
    }
}
