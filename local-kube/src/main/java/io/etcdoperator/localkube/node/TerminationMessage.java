package io.etcdoperator.localkube.node;

import io.fabric8.kubernetes.api.model.Container;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A container's termination message as the kubelet produces it: the file at {@code terminationMessagePath} (a
 * fresh host file per run, bound there), or with {@code FallbackToLogsOnError} and a failed, silent run, the tail
 * of its log.
 */
final class TerminationMessage {

    static final String DEFAULT_PATH = "/dev/termination-log";
    /** The kubelet's caps: 4096 bytes of the file, the last 80 lines (at most 2048 bytes) of the log. */
    static final int FILE_LIMIT = 4096;

    static final int LOG_LINES = 80;
    static final int LOG_LIMIT = 2048;
    /** Only the end of a log is read: 80 lines of a long log fit in it. */
    private static final int LOG_WINDOW = 64 * 1024;

    private TerminationMessage() {}

    /** Empties (or creates) the run's message file and returns the mount that places it in the container. */
    static ContainerLaunch.Mount prepare(Path podDir, Container container) {
        Path file = podDir.resolve("termination").resolve(container.getName());
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, new byte[0]);
            // containers may run as any user; the file must be writable by the program, as in a real kubelet
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare termination message file " + file, e);
        }
        String path = Objects.requireNonNullElse(container.getTerminationMessagePath(), DEFAULT_PATH);
        Path target = Path.of(path.isEmpty() ? DEFAULT_PATH : path);
        ensureTarget(target);
        return new ContainerLaunch.Mount(file, target, false);
    }

    /**
     * The bind target must exist on the host (mount namespaces share its file system). It is created here, not by
     * {@link MountPoints}, and never removed: local clusters of other JVMs on this host may be binding onto it.
     */
    private static void ensureTarget(Path target) {
        if (Files.exists(target)) {
            return;
        }
        try {
            Files.createDirectories(target.getParent());
            Files.createFile(target);
        } catch (FileAlreadyExistsException e) {
            // created concurrently: fine
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create termination message path " + target, e);
        }
    }

    /** The message of a run that exited with {@code exitCode}; null when there is none. */
    static String read(Path podDir, Container container, int exitCode, Optional<Path> log) {
        String message = head(podDir.resolve("termination").resolve(container.getName()));
        if (message.isEmpty()
                && exitCode != 0
                && "FallbackToLogsOnError".equals(container.getTerminationMessagePolicy())
                && log.isPresent()) {
            message = tail(log.get());
        }
        return message.isEmpty() ? null : message;
    }

    private static String head(Path file) {
        if (!Files.isRegularFile(file)) {
            return "";
        }
        try (InputStream in = Files.newInputStream(file)) {
            return new String(in.readNBytes(FILE_LIMIT), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    static String tail(Path log) {
        String text;
        try (SeekableByteChannel channel = Files.newByteChannel(log)) {
            long start = Math.max(0, channel.size() - LOG_WINDOW);
            ByteBuffer buffer = ByteBuffer.allocate((int) (channel.size() - start));
            channel.position(start);
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // read the window
            }
            text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
        List<String> lines = text.lines().toList();
        String last = String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_LINES), lines.size()));
        byte[] bytes = last.getBytes(StandardCharsets.UTF_8);
        return bytes.length <= LOG_LIMIT
                ? last
                : new String(bytes, bytes.length - LOG_LIMIT, LOG_LIMIT, StandardCharsets.UTF_8);
    }
}
