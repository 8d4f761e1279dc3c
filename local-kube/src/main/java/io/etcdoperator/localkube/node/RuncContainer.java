package io.etcdoperator.localkube.node;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdoperator.localkube.network.HostCommand;
import io.etcdoperator.localkube.network.PodSandbox;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One run of a container from a real image with runc: an OCI bundle whose root is an overlay of the image (so writes
 * stay with the run), the Pod's volumes, hosts file and security context in config.json, and a memory cgroup. runc
 * runs in the foreground inside the Pod's network namespace (the bundle asks for no network namespace of its own),
 * so its exit status is the container's and signals to it reach the container.
 */
final class RuncContainer {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CGROUP_PARENT = "/etcdop-localkube/";

    private final Path stateDir;
    private final Path bundle;
    private final String id;
    private Boolean oomKilled;

    private RuncContainer(Path stateDir, Path bundle, String id) {
        this.stateDir = stateDir;
        this.bundle = bundle;
        this.id = id;
    }

    /** What a run needs besides the image: the resolved program, environment, mounts and limits. */
    record Spec(
            List<String> args,
            Map<String, String> env,
            String workingDir,
            String hostname,
            List<ContainerLaunch.Mount> mounts,
            Path hostsFile,
            ContainerSecurity security,
            OptionalLong memoryLimit) {}

    static RuncContainer prepare(Path stateDir, Path bundle, String id, ContainerRootfs image, Spec spec) {
        try {
            HostCommand.run("rm", "-rf", bundle.toString());
            Files.createDirectories(bundle);
            for (String dir : List.of("upper", "work", "rootfs")) {
                Files.createDirectories(bundle.resolve(dir));
            }
            Files.createDirectories(stateDir);
            Files.writeString(
                    bundle.resolve("config.json"),
                    JSON.writerWithDefaultPrettyPrinter().writeValueAsString(config(image, spec, id)));
            return new RuncContainer(stateDir, bundle, id);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the bundle of container " + id, e);
        }
    }

    String id() {
        return id;
    }

    /** The host command line: enter the Pod's network, mount the overlay root, run runc in the foreground. */
    List<String> commandLine(PodSandbox sandbox, ContainerRootfs image) {
        String script = "set -e\n"
                + "mount -t overlay overlay -o "
                + ContainerLaunch.quote("lowerdir=" + image.dir() + ",upperdir=" + bundle.resolve("upper") + ",workdir="
                        + bundle.resolve("work"))
                + " "
                + ContainerLaunch.quote(bundle.resolve("rootfs").toString()) + "\n"
                + "exec runc --root " + ContainerLaunch.quote(stateDir.toString()) + " run --keep --bundle "
                + ContainerLaunch.quote(bundle.toString()) + " " + ContainerLaunch.quote(id) + "\n";
        List<String> line = new ArrayList<>(enter(sandbox));
        line.addAll(List.of("/bin/sh", "-c", script));
        return line;
    }

    /**
     * The Pod's network with a private mount namespace that keeps the host's /sys: `ip netns exec` remounts /sys,
     * which hides the cgroup hierarchy runc needs, so its namespace is entered with nsenter instead.
     */
    private static List<String> enter(PodSandbox sandbox) {
        List<String> enter = sandbox.enter();
        if (enter.size() == 4 && enter.subList(0, 3).equals(List.of("ip", "netns", "exec"))) {
            return List.of(
                    "nsenter", "--net=/run/netns/" + enter.get(3), "unshare", "--mount", "--propagation", "private");
        }
        return enter;
    }

    /** A command in the running container (its namespaces, user and environment), as an exec probe runs it. */
    List<String> execCommandLine(List<String> command) {
        List<String> line = new ArrayList<>(List.of("runc", "--root", stateDir.toString(), "exec", id));
        line.addAll(command);
        return line;
    }

    /**
     * Whether the kernel's OOM killer killed a process of this run in its memory cgroup, as a kubelet reports
     * {@code OOMKilled}. {@code run --keep} leaves the cgroup after the exit so it can be read before {@link #delete}.
     */
    synchronized boolean oomKilled() {
        if (oomKilled == null) {
            Path v1 = Path.of("/sys/fs/cgroup/memory" + CGROUP_PARENT + id, "memory.oom_control");
            Path v2 = Path.of("/sys/fs/cgroup" + CGROUP_PARENT + id, "memory.events");
            oomKilled = oomKills(Files.exists(v1) ? v1 : v2) > 0;
        }
        return oomKilled;
    }

    /** The {@code oom_kill N} line of a cgroup v1 memory.oom_control or v2 memory.events; 0 when unreadable. */
    static long oomKills(Path file) {
        try {
            return Files.readAllLines(file).stream()
                    .filter(line -> line.startsWith("oom_kill "))
                    .mapToLong(line ->
                            Long.parseLong(line.substring("oom_kill ".length()).strip()))
                    .sum();
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    /** Removes runc's state and cgroups of the run once it has exited, and the run's writable layer. */
    synchronized void delete() {
        oomKilled();
        HostCommand.attempt(List.of("runc", "--root", stateDir.toString(), "delete", "--force", id));
        HostCommand.attempt(List.of("umount", "-l", bundle.resolve("rootfs").toString()));
        HostCommand.attempt(List.of(
                "rm",
                "-rf",
                bundle.resolve("upper").toString(),
                bundle.resolve("work").toString()));
    }

    private static ObjectNode config(ContainerRootfs image, Spec spec, String id) {
        ObjectNode config = JSON.createObjectNode();
        config.put("ociVersion", "1.0.2");
        ObjectNode process = config.putObject("process");
        process.put("terminal", false);
        ObjectNode user = process.putObject("user");
        user.put("uid", spec.security().uid());
        user.put("gid", spec.security().gid());
        ArrayNode groups = user.putArray("additionalGids");
        spec.security().supplementalGroups().forEach(groups::add);
        ArrayNode args = process.putArray("args");
        spec.args().forEach(args::add);
        ArrayNode env = process.putArray("env");
        Map<String, String> merged = new LinkedHashMap<>();
        image.env().forEach(variable -> {
            int eq = variable.indexOf('=');
            merged.put(variable.substring(0, eq), variable.substring(eq + 1));
        });
        merged.putAll(spec.env());
        merged.forEach((key, value) -> env.add(key + "=" + value));
        process.put(
                "cwd",
                spec.workingDir() == null || spec.workingDir().isEmpty() ? image.workingDir() : spec.workingDir());
        ObjectNode capabilities = process.putObject("capabilities");
        for (String set : List.of("bounding", "effective", "permitted", "inheritable")) {
            ArrayNode list = capabilities.putArray(set);
            spec.security().capabilities().forEach(cap -> list.add("CAP_" + cap));
        }
        process.put("noNewPrivileges", spec.security().noNewPrivileges());
        config.putObject("root")
                .put("path", "rootfs")
                .put("readonly", spec.security().readOnlyRoot());
        config.put("hostname", spec.hostname());
        ArrayNode mounts = config.putArray("mounts");
        mount(mounts, "/proc", "proc", "proc", List.of("nosuid", "noexec", "nodev"));
        mount(mounts, "/dev", "tmpfs", "tmpfs", List.of("nosuid", "strictatime", "mode=755", "size=65536k"));
        mount(
                mounts,
                "/dev/pts",
                "devpts",
                "devpts",
                List.of("nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620", "gid=5"));
        mount(mounts, "/dev/shm", "tmpfs", "shm", List.of("nosuid", "noexec", "nodev", "mode=1777", "size=65536k"));
        mount(mounts, "/dev/mqueue", "mqueue", "mqueue", List.of("nosuid", "noexec", "nodev"));
        mount(mounts, "/sys", "sysfs", "sysfs", List.of("nosuid", "noexec", "nodev", "ro"));
        // the container's own cgroup, read-only: the JVM sizes its heap from the memory limit it finds there
        mount(mounts, "/sys/fs/cgroup", "cgroup", "cgroup", List.of("nosuid", "noexec", "nodev", "relatime", "ro"));
        mount(mounts, "/etc/hosts", "bind", spec.hostsFile().toString(), List.of("rbind", "ro"));
        Path resolv = spec.hostsFile().resolveSibling("resolv.conf"); // the sandbox's, naming ClusterDns
        if (Files.exists(resolv)) {
            mount(mounts, "/etc/resolv.conf", "bind", resolv.toString(), List.of("rbind", "ro"));
        }
        spec.mounts().stream()
                .sorted(Comparator.comparingInt(m -> m.target().getNameCount()))
                .forEach(m -> mount(
                        mounts,
                        m.target().toString(),
                        "bind",
                        m.source().toString(),
                        List.of("rbind", m.readOnly() ? "ro" : "rw")));
        ObjectNode linux = config.putObject("linux");
        ArrayNode namespaces = linux.putArray("namespaces");
        for (String type : List.of("pid", "ipc", "uts", "mount")) {
            namespaces.addObject().put("type", type); // no network entry: the Pod's namespace runc starts in
        }
        linux.put("cgroupsPath", CGROUP_PARENT + id);
        ObjectNode resources = linux.putObject("resources");
        resources.putArray("devices").addObject().put("allow", false).put("access", "rwm");
        spec.memoryLimit().ifPresent(limit -> resources.putObject("memory").put("limit", limit));
        ArrayNode masked = linux.putArray("maskedPaths");
        List.of(
                        "/proc/acpi",
                        "/proc/asound",
                        "/proc/kcore",
                        "/proc/keys",
                        "/proc/latency_stats",
                        "/proc/timer_list",
                        "/proc/timer_stats",
                        "/proc/sched_debug",
                        "/sys/firmware",
                        "/proc/scsi")
                .forEach(masked::add);
        ArrayNode readonly = linux.putArray("readonlyPaths");
        List.of("/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger")
                .forEach(readonly::add);
        return config;
    }

    private static void mount(ArrayNode mounts, String destination, String type, String source, List<String> options) {
        ObjectNode mount = mounts.addObject();
        mount.put("destination", destination);
        mount.put("type", type);
        mount.put("source", source);
        ArrayNode list = mount.putArray("options");
        options.forEach(list::add);
    }
}
