package io.etcdoperator.localkube.node;

import io.etcdoperator.localkube.network.PodSandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The host command line that runs a container's program inside its Pod: enter the Pod's network and a private
 * mount namespace, bind each volume onto its mountPath there, change to the working dir, then exec the program.
 */
final class ContainerLaunch {

    /** A volume (or a file or dir inside one, for subPath) bound at {@code target} inside the container. */
    record Mount(Path source, Path target, boolean readOnly) {}

    private ContainerLaunch() {}

    static List<String> commandLine(
            PodSandbox sandbox, List<Mount> mounts, String workingDir, List<String> program, MountPoints mountPoints) {
        List<Mount> ordered = mounts.stream()
                .sorted(Comparator.comparingInt(mount -> mount.target().getNameCount()))
                .toList();
        StringBuilder script = new StringBuilder("set -e\n");
        if (sandbox.launcherBindsHosts()) {
            script.append("mount --bind ")
                    .append(quote(sandbox.hostsFile().toString()))
                    .append(" /etc/hosts\n");
        }
        for (Mount mount : ordered) {
            boolean nested = ordered.stream()
                    .anyMatch(other -> other != mount
                            && mount.target().startsWith(other.target())
                            && !mount.target().equals(other.target()));
            boolean file = Files.isRegularFile(mount.source());
            String target = quote(mount.target().toString());
            if (nested) {
                // inside another volume: created there, not on the host
                script.append(file ? "[ -e " + target + " ] || : > " + target : "mkdir -p " + target)
                        .append('\n');
            } else {
                mountPoints.ensure(mount.target(), file);
            }
            script.append("mount --bind ")
                    .append(quote(mount.source().toString()))
                    .append(' ')
                    .append(target)
                    .append('\n');
            if (mount.readOnly()) {
                script.append("mount -o remount,bind,ro ").append(target).append('\n');
            }
        }
        if (workingDir != null && !workingDir.isEmpty()) {
            Path dir = Path.of(workingDir);
            if (ordered.stream().noneMatch(mount -> dir.startsWith(mount.target()))) {
                mountPoints.ensure(dir, false);
            }
            script.append("mkdir -p ")
                    .append(quote(workingDir))
                    .append(" && cd ")
                    .append(quote(workingDir))
                    .append('\n');
        }
        script.append("exec \"$@\"\n");
        List<String> line = new ArrayList<>(sandbox.enter());
        line.addAll(List.of("/bin/sh", "-c", script.toString(), "container"));
        line.addAll(program);
        return line;
    }

    static String quote(String value) {
        return "'" + value.replace("'", "'\\''") + "'";
    }
}
