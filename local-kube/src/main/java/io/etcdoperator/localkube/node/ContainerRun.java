package io.etcdoperator.localkube.node;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Moves a Pod's containers through their runs as the kubelet does: pull the image, start the process (in runc when
 * the image has a rootfs) with its probes, notice an exit or a failed liveness probe, restart per policy.
 */
final class ContainerRun {

    private static final System.Logger LOG = System.getLogger(ContainerRun.class.getName());
    private static final Duration PULL_ATTEMPT = Duration.ofSeconds(2);
    static final Duration RETRY = Duration.ofSeconds(1);

    private final NodeFacilities facilities;
    private final PodRuntime runtime;
    private final Supplier<Pod> pod;
    private final Runnable wake;
    private final String namespace;
    private final String name;
    private final String uid;
    private final Path dir;

    ContainerRun(NodeFacilities facilities, PodRuntime runtime, Supplier<Pod> pod, Runnable wake) {
        this.facilities = facilities;
        this.runtime = runtime;
        this.pod = pod;
        this.wake = wake;
        this.namespace = pod.get().getMetadata().getNamespace();
        this.name = pod.get().getMetadata().getName();
        this.uid = pod.get().getMetadata().getUid();
        this.dir = runtime.dir();
    }

    /** Moves one container along: notice an exit or a failed liveness probe, restart after back-off, start. */
    void drive(ContainerSlot slot, String policy) {
        if (slot.running()) {
            if (slot.unhealthy && slot.process.alive()) {
                LOG.log(
                        Level.INFO,
                        "{0}/{1}: container {2} {3}; restarting it",
                        namespace,
                        name,
                        slot.name(),
                        slot.unhealthyMessage);
                slot.process.terminate(PodTermination.gracePeriod(pod.get()));
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
            env = runtime.environment().resolve(slot.spec);
        } catch (VolumeNotReady e) {
            configError(slot, e);
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
        if (!launch(slot, image.get(), program.get(), env)) {
            return;
        }
        slot.waitingReason = null;
        slot.waitingMessage = null;
        slot.ready = false;
        slot.unhealthy = false;
        slot.started = slot.startupProbe().isEmpty();
        startProbes(slot);
        LOG.log(Level.DEBUG, "{0}/{1}: started {2} as pid {3}", namespace, name, slot.name(), slot.process.pid());
    }

    /** Starts the process, in runc when the image has a rootfs; false on a config error (runAsNonRoot, root image). */
    private boolean launch(
            ContainerSlot slot, ImageCatalogue.Image image, List<String> program, Map<String, String> env) {
        Map<String, String> processEnv = new LinkedHashMap<>(env);
        processEnv.putIfAbsent(
                "HOSTNAME", Objects.requireNonNullElse(pod.get().getSpec().getHostname(), name));
        List<ContainerLaunch.Mount> mounts = runtime.mounts(slot.spec);
        mounts.add(TerminationMessage.prepare(dir, slot.spec));
        if (image.rootfs().isPresent()) {
            return launchInRunc(slot, image.rootfs().get(), program, processEnv, mounts);
        }
        slot.runc = null;
        List<String> line = ContainerLaunch.commandLine(
                runtime.sandbox(), mounts, slot.spec.getWorkingDir(), program, facilities.mountPoints());
        slot.process = ContainerProcess.start(line, processEnv, ContainerLogs.next(dir, slot.name()));
        return true;
    }

    private boolean launchInRunc(
            ContainerSlot slot,
            ContainerRootfs rootfs,
            List<String> program,
            Map<String, String> processEnv,
            List<ContainerLaunch.Mount> mounts) {
        ContainerSecurity security;
        try {
            security = ContainerSecurity.of(pod.get(), slot.spec, rootfs.uid(), rootfs.gid());
        } catch (VolumeNotReady e) {
            configError(slot, e);
            return false;
        }
        security.fsGroup().ifPresent(runtime::applyFsGroup);
        RuncContainer container = RuncContainer.prepare(
                facilities.workDir().resolve("runc"),
                dir.resolve("bundles").resolve(slot.name()),
                uid.substring(0, Math.min(8, uid.length())) + "-" + slot.name() + "-" + slot.restartCount,
                rootfs,
                new RuncContainer.Spec(
                        program,
                        processEnv,
                        slot.spec.getWorkingDir(),
                        processEnv.get("HOSTNAME"),
                        mounts,
                        runtime.sandbox().hostsFile(),
                        security,
                        ContainerResources.memoryLimit(slot.spec)));
        slot.runc = container;
        slot.process = ContainerProcess.start(
                container.commandLine(runtime.sandbox(), rootfs), Map.of(), ContainerLogs.next(dir, slot.name()));
        slot.process.afterExit(container::delete);
        return true;
    }

    private static void configError(ContainerSlot slot, VolumeNotReady e) {
        slot.waitingReason = "CreateContainerConfigError";
        slot.waitingMessage = e.getMessage();
        slot.nextStart = Instant.now().plus(RETRY);
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

    private void startProbes(ContainerSlot slot) {
        ContainerProcess instance = slot.process;
        String ip = runtime.sandbox().ip();
        ProbeAction.Exec exec = (command, timeout) -> runtime.exec(slot.spec, command, timeout);
        slot.startupProbe()
                .ifPresent(probe -> slot.addProbe(Thread.ofVirtual()
                        .start(new ProbeLoop(ProbeLoop.Kind.STARTUP, probe, slot, instance, ip, exec, wake))));
        slot.readinessProbe()
                .ifPresent(probe -> slot.addProbe(Thread.ofVirtual()
                        .start(new ProbeLoop(ProbeLoop.Kind.READINESS, probe, slot, instance, ip, exec, wake))));
        slot.livenessProbe()
                .ifPresent(probe -> slot.addProbe(Thread.ofVirtual()
                        .start(new ProbeLoop(ProbeLoop.Kind.LIVENESS, probe, slot, instance, ip, exec, wake))));
    }
}
