package io.etcdoperator.localkube.node;

import io.etcdoperator.localkube.network.HostCommand;
import io.etcdoperator.localkube.network.HostsEntries;
import io.etcdoperator.localkube.network.PodSandbox;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What a Pod's containers run in on the node: its sandbox (IP, hosts file, the kubernetes Service), the environment
 * and the volumes, made in the first two stages and released at teardown. Also runs an exec within them.
 */
final class PodRuntime {

    private final SimulatedNode node;
    private final NodeFacilities facilities;
    private final Supplier<Pod> pod;
    private final String namespace;
    private final String name;
    private final String uid;
    private final Path dir;
    private final List<ContainerSlot> allSlots;
    private volatile PodSandbox sandbox;
    private volatile PodVolumes volumes;
    private ContainerEnvironment environment;
    private Map<String, Path> volumePaths = Map.of();
    /** The labels and annotations the downwardAPI volumes were last written from. */
    private Map<String, String> downwardLabels;

    private Map<String, String> downwardAnnotations;

    PodRuntime(
            SimulatedNode node, NodeFacilities facilities, Supplier<Pod> pod, Path dir, List<ContainerSlot> allSlots) {
        this.node = node;
        this.facilities = facilities;
        this.pod = pod;
        this.namespace = pod.get().getMetadata().getNamespace();
        this.name = pod.get().getMetadata().getName();
        this.uid = pod.get().getMetadata().getUid();
        this.dir = dir;
        this.allSlots = allSlots;
    }

    /** Null until the sandbox stage ran. */
    PodSandbox sandbox() {
        return sandbox;
    }

    /** Null until the sandbox stage ran. */
    PodVolumes volumes() {
        return volumes;
    }

    ContainerEnvironment environment() {
        return environment;
    }

    Path dir() {
        return dir;
    }

    void createSandbox() {
        sandbox = facilities.network().allocate(namespace + "-" + name);
        facilities
                .hosts()
                .register(
                        uid,
                        sandbox.hostsFile(),
                        HostsEntries.own(
                                pod.get(), sandbox.ip(), facilities.hosts().clusterDomain()));
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
        environment = new ContainerEnvironment(facilities.client(), pod.get(), sandbox.ip(), node.hostIp(), services);
        volumes = new PodVolumes(facilities.client(), pod.get(), dir, environment);
        downwardLabels = pod.get().getMetadata().getLabels();
        downwardAnnotations = pod.get().getMetadata().getAnnotations();
    }

    /** Throws {@link VolumeNotReady} while something a volume needs is missing. */
    void prepareVolumes() {
        volumePaths = volumes.prepare();
    }

    void refreshDownward() {
        Pod latest = pod.get();
        Map<String, String> labels = latest.getMetadata().getLabels();
        Map<String, String> annotations = latest.getMetadata().getAnnotations();
        if (Objects.equals(labels, downwardLabels) && Objects.equals(annotations, downwardAnnotations)) {
            return;
        }
        volumes.refreshDownward(new ContainerEnvironment(facilities.client(), latest, sandbox.ip(), node.hostIp()));
        downwardLabels = labels;
        downwardAnnotations = annotations;
    }

    List<ContainerLaunch.Mount> mounts(Container container) {
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

    /**
     * The kubelet's fsGroup: volumes belong to that group, group-writable, and new files inherit it (setgid dirs),
     * so a non-root container can use them.
     */
    void applyFsGroup(long gid) {
        for (Path volume : volumePaths.values()) {
            HostCommand.attempt(List.of("chgrp", "-R", Long.toString(gid), volume.toString()));
            HostCommand.attempt(List.of("chmod", "-R", "g+rwX", volume.toString()));
            HostCommand.attempt(List.of("find", volume.toString(), "-type", "d", "-exec", "chmod", "g+s", "{}", "+"));
        }
    }

    /** Runs a command inside a container's view of the Pod (its network, mounts and environment). */
    int exec(Container container, List<String> command, Duration timeout) {
        Optional<RuncContainer> runc = allSlots.stream()
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

    /** Releases the hosts entry, the volumes and the sandbox, whichever exist. */
    void teardown() {
        facilities.hosts().unregister(uid);
        if (volumes != null) {
            volumes.close();
        }
        if (sandbox != null) {
            sandbox.close();
        }
    }
}
