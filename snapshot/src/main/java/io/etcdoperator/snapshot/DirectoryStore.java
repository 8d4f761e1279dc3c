package io.etcdoperator.snapshot;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** Snapshots as files below a directory (a PVC mount). Writes go to a temporary file that is renamed when complete. */
public final class DirectoryStore implements SnapshotStore {

    private static final int BUFFER = 1 << 20;

    private final Path root;

    public DirectoryStore(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    @Override
    public StoredSnapshot save(String key, SnapshotIdentity owner, SnapshotWriter writer) {
        Path target = resolve(key);
        try {
            Optional<StoredSnapshot> done = existing(target, owner);
            if (done.isPresent()) {
                return done.get();
            }
            Files.createDirectories(target.getParent());
            writeAtomically(sibling(target, StoreRecords.OWNER_SUFFIX), owner.uid());
            Path temp = target.resolveSibling("." + target.getFileName() + "." + owner.uid() + ".tmp");
            StoredSnapshot stored;
            try (FileChannel channel = FileChannel.open(
                            temp,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING);
                    var tally = new TallyingOutputStream(
                            new BufferedOutputStream(Channels.newOutputStream(channel), BUFFER))) {
                writer.writeTo(tally);
                tally.flush();
                channel.force(true);
                stored = StoredSnapshot.of(target.toUri(), tally.count(), tally.digest());
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(temp);
                throw e;
            }
            move(temp, target);
            writeAtomically(sibling(target, StoreRecords.CHECKSUM_SUFFIX), StoreRecords.checksumLine(stored));
            syncDirectory(target.getParent());
            return stored;
        } catch (IOException e) {
            throw storageError("write " + target, e);
        }
    }

    @Override
    public StoredSnapshot fetch(String key, Path destination, UnaryOperator<OutputStream> decoding) {
        Path source = existingFile(key);
        try (InputStream in = Files.newInputStream(source);
                OutputStream out = new TallyingOutputStream(decoding.apply(Files.newOutputStream(destination)))) {
            in.transferTo(out);
            out.flush();
            TallyingOutputStream tally = (TallyingOutputStream) out;
            return StoredSnapshot.of(source.toUri(), tally.count(), tally.digest());
        } catch (IOException e) {
            throw storageError("copy " + source + " to " + destination, e);
        }
    }

    @Override
    public long size(String key) {
        try {
            return Files.size(existingFile(key));
        } catch (IOException e) {
            throw storageError("stat " + key, e);
        }
    }

    @Override
    public Optional<String> recordedChecksum(String key) {
        return read(sibling(resolve(key), StoreRecords.CHECKSUM_SUFFIX))
                .flatMap(StoreRecords::parse)
                .map(r -> StoredSnapshot.CHECKSUM_PREFIX + r.sha256Hex());
    }

    @Override
    public boolean delete(String key, SnapshotIdentity owner) {
        Path target = resolve(key);
        Path ownerFile = sibling(target, StoreRecords.OWNER_SUFFIX);
        if (!Files.exists(target) && !Files.exists(ownerFile)) {
            return false;
        }
        Optional<String> found = read(ownerFile).map(String::strip);
        if (!found.equals(Optional.of(owner.uid()))) {
            throw StoreRecords.foreign(target.toString(), found);
        }
        try {
            Files.deleteIfExists(target);
            Files.deleteIfExists(sibling(target, StoreRecords.CHECKSUM_SUFFIX));
            Files.deleteIfExists(ownerFile);
            return true;
        } catch (IOException e) {
            throw storageError("delete " + target, e);
        }
    }

    /** A complete object of this owner, or empty when there is nothing (or only our own unfinished attempt). */
    private Optional<StoredSnapshot> existing(Path target, SnapshotIdentity owner) throws IOException {
        Path ownerFile = sibling(target, StoreRecords.OWNER_SUFFIX);
        if (!Files.exists(target) && !Files.exists(ownerFile)) {
            return Optional.empty();
        }
        Optional<String> found = read(ownerFile).map(String::strip);
        if (!found.equals(Optional.of(owner.uid()))) {
            throw StoreRecords.foreign(target.toString(), found);
        }
        Optional<StoreRecords.Recorded> recorded =
                read(sibling(target, StoreRecords.CHECKSUM_SUFFIX)).flatMap(StoreRecords::parse);
        if (recorded.isPresent()
                && Files.exists(target)
                && Files.size(target) == recorded.get().sizeBytes()) {
            return Optional.of(new StoredSnapshot(
                    target.toUri(), recorded.get().sizeBytes(), recorded.get().sha256Hex()));
        }
        return Optional.empty();
    }

    private Path existingFile(String key) {
        Path source = resolve(key);
        if (Files.isDirectory(source)) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INVALID_REQUEST, source + " is a directory, not a snapshot file");
        }
        if (!Files.isRegularFile(source)) {
            throw new SnapshotFailure(SnapshotFailure.Reason.SNAPSHOT_NOT_FOUND, "no snapshot file at " + source);
        }
        return source;
    }

    private Path resolve(String key) {
        if (key == null || key.isBlank()) {
            throw new SnapshotFailure(SnapshotFailure.Reason.INVALID_REQUEST, "an empty path names no snapshot file");
        }
        Path path = root.resolve(key.startsWith("/") ? key.substring(1) : key).normalize();
        if (!path.startsWith(root) || path.equals(root)) {
            throw new SnapshotFailure(SnapshotFailure.Reason.INVALID_REQUEST, "'" + key + "' leaves " + root);
        }
        return path;
    }

    private static Path sibling(Path target, String suffix) {
        return target.resolveSibling(target.getFileName() + suffix);
    }

    private static Optional<String> read(Path file) {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw storageError("read " + file, e);
        }
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path temp = file.resolveSibling("." + file.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(
                temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            channel.write(StandardCharsets.UTF_8.encode(text));
            channel.force(true);
        }
        move(temp, file);
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Makes the renames durable; some filesystems refuse to open a directory for sync, which costs only durability. */
    private static void syncDirectory(Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UncheckedIOException e) {
            // best effort
        }
    }

    private static SnapshotFailure storageError(String action, IOException e) {
        return new SnapshotFailure(SnapshotFailure.Reason.STORAGE_ERROR, "cannot " + action + ": " + e.getMessage(), e);
    }
}
