package io.etcdoperator.localkube.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * Mount points that volumes are bound onto inside Pods. A missing one has to exist on the host's file system too
 * (mount namespaces share it), so it is created and remembered. {@link #close()} removes what was created unless
 * another live local cluster (this JVM's or another's) is registered: removing a directory that another mount
 * namespace binds onto detaches that bind (Linux 3.18+), so its running containers would lose their files.
 */
public final class MountPoints implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(MountPoints.class.getName());
    private static final ReentrantLock IN_JVM = new ReentrantLock();
    static final Path USERS = Path.of("/run/local-kube/mount-point-users");

    private final List<Path> created = new ArrayList<>();
    private final Path users;
    private final Path registration;

    public MountPoints() {
        this(USERS);
    }

    /** Registers this local cluster in {@code users}, one file named by its process id, until {@link #close()}. */
    MountPoints(Path users) {
        this.users = users;
        try {
            Files.createDirectories(users);
            this.registration = users.resolve(ProcessHandle.current().pid() + "-" + UUID.randomUUID());
            try (HostLock lock = lock()) {
                Files.createFile(registration);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot register in " + users, e);
        }
    }

    /** Makes {@code mountPoint} exist: a directory, or an empty file when a single file is mounted there. */
    public synchronized void ensure(Path mountPoint, boolean file) {
        if (Files.exists(mountPoint)) {
            return;
        }
        try (HostLock lock = lock()) {
            create(mountPoint, file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create mount point " + mountPoint, e);
        }
    }

    private void create(Path mountPoint, boolean file) throws IOException {
        if (Files.exists(mountPoint)) {
            return;
        }
        Path missing = mountPoint;
        while (missing.getParent() != null && !Files.exists(missing.getParent())) {
            missing = missing.getParent();
        }
        List<Path> chain = new ArrayList<>();
        for (Path p = mountPoint; p != null && p.startsWith(missing); p = p.getParent()) {
            chain.addFirst(p);
        }
        for (Path p : chain) {
            if (p.equals(mountPoint) && file) {
                Files.createFile(p);
            } else {
                Files.createDirectory(p);
            }
            created.add(p);
        }
    }

    @Override
    public synchronized void close() {
        try (HostLock lock = lock()) {
            Files.deleteIfExists(registration);
            List<String> others = liveUsers();
            if (others.isEmpty()) {
                removeCreated();
            } else if (!created.isEmpty()) {
                LOG.log(
                        Level.INFO,
                        "mount points {0} left in place: local clusters {1} may bind onto them",
                        created,
                        others);
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot unregister from " + users, e);
        }
        created.clear();
    }

    /** Other registrations whose process is alive; those of processes gone are removed. */
    private List<String> liveUsers() throws IOException {
        List<String> live = new ArrayList<>();
        try (Stream<Path> files = Files.list(users)) {
            for (Path file : files.filter(f -> !f.getFileName().toString().startsWith("."))
                    .toList()) {
                String name = file.getFileName().toString();
                if (processOf(name)
                        .flatMap(ProcessHandle::of)
                        .map(ProcessHandle::isAlive)
                        .orElse(false)) {
                    live.add(name);
                } else {
                    Files.deleteIfExists(file);
                }
            }
        }
        return live;
    }

    /** The process id a registration is named by; none for a file not named "pid-..." (never a reason to fail close). */
    private static Optional<Long> processOf(String name) {
        int dash = name.indexOf('-');
        try {
            return dash > 0 ? Optional.of(Long.parseLong(name.substring(0, dash))) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private void removeCreated() {
        for (Path path : created.reversed()) {
            try {
                Files.deleteIfExists(path);
            } catch (DirectoryNotEmptyException e) {
                LOG.log(Level.WARNING, "mount point {0} is not empty; left in place", path);
            } catch (IOException e) {
                LOG.log(Level.WARNING, "cannot remove mount point " + path, e);
            }
        }
    }

    /**
     * One lock for every local cluster on this host: registering, creating and removing are never interleaved. A file
     * lock is held per JVM, so local clusters of this JVM take {@link #IN_JVM} first.
     */
    private HostLock lock() throws IOException {
        IN_JVM.lock();
        try {
            FileChannel channel =
                    FileChannel.open(users.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            return new HostLock(channel, channel.lock());
        } catch (IOException | RuntimeException e) {
            IN_JVM.unlock();
            throw e;
        }
    }

    /** The host's lock, its channel and this JVM's lock, released together. */
    private record HostLock(FileChannel channel, FileLock held) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try {
                held.release();
                channel.close();
            } finally {
                IN_JVM.unlock();
            }
        }
    }
}
