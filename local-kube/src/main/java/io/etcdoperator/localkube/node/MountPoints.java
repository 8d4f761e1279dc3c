package io.etcdoperator.localkube.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Mount points that volumes are bound onto inside Pods. A missing one has to exist on the host's file system too
 * (mount namespaces share it), so it is created and remembered, and {@link #close()} removes what was created.
 */
public final class MountPoints implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(MountPoints.class.getName());

    private final List<Path> created = new ArrayList<>();

    /** Makes {@code mountPoint} exist: a directory, or an empty file when a single file is mounted there. */
    public synchronized void ensure(Path mountPoint, boolean file) {
        if (Files.exists(mountPoint)) {
            return;
        }
        try {
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
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create mount point " + mountPoint, e);
        }
    }

    @Override
    public synchronized void close() {
        for (Path path : created.reversed()) {
            try {
                Files.deleteIfExists(path);
            } catch (DirectoryNotEmptyException e) {
                LOG.log(Level.WARNING, "mount point {0} is not empty; left in place", path);
            } catch (IOException e) {
                LOG.log(Level.WARNING, "cannot remove mount point " + path, e);
            }
        }
        created.clear();
    }
}
