package io.etcdoperator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Established TCP connections of one process to etcd's client port (2379): its socket inodes (from /proc/PID/fd)
 * matched against /proc/PID/net/tcp{,6}, so other processes' sockets in the same network namespace do not count.
 */
final class EtcdSockets {

    static final int CLIENT_PORT = 2379;
    private static final String ESTABLISHED = "01";

    private EtcdSockets() {}

    static int of(long pid) {
        Set<String> inodes = socketInodes(pid);
        int count = 0;
        for (String table : List.of("tcp", "tcp6")) {
            count += count(read(Path.of("/proc", String.valueOf(pid), "net", table)), inodes);
        }
        return count;
    }

    /** Lines of /proc/net/tcp: sl local_address rem_address st ... uid timeout inode. */
    static int count(List<String> lines, Set<String> inodes) {
        int count = 0;
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 10) {
                continue;
            }
            int remotePort = Integer.parseInt(f[2].substring(f[2].indexOf(':') + 1), 16);
            if (remotePort == CLIENT_PORT && ESTABLISHED.equals(f[3]) && inodes.contains(f[9])) {
                count++;
            }
        }
        return count;
    }

    private static Set<String> socketInodes(long pid) {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
            fds.forEach(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            });
        } catch (IOException e) {
            throw new IllegalStateException("cannot list the fds of " + pid, e);
        }
        return inodes;
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            return List.of();
        }
    }
}
