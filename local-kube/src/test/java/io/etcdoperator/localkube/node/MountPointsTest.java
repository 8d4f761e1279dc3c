package io.etcdoperator.localkube.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A mount point another local cluster may bind onto outlives the cluster that created it; the last one out removes. */
class MountPointsTest {

    @TempDir
    Path tmp;

    /** The registration files (the lock file stays). */
    private static List<Path> registrations(Path users) {
        try (Stream<Path> files = Files.list(users)) {
            return files.filter(f -> !f.getFileName().toString().startsWith("."))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theOnlyLocalClusterRemovesWhatItCreated() throws IOException {
        Path target = tmp.resolve("etc/etcd/tls/client");
        MountPoints points = new MountPoints(tmp.resolve("users"));
        points.ensure(target, false);
        assertThat(target).isDirectory();

        points.close();

        assertThat(tmp.resolve("etc")).doesNotExist();
        assertThat(registrations(tmp.resolve("users"))).isEmpty();
    }

    @Test
    void aMountPointStaysWhileAnotherLocalClusterIsRegistered() throws IOException {
        Path target = tmp.resolve("etc/etcd/tls/client/tls.crt");
        MountPoints first = new MountPoints(tmp.resolve("users"));
        MountPoints second = new MountPoints(tmp.resolve("users"));
        first.ensure(target, true);
        second.ensure(target, true);

        first.close();

        assertThat(target).isRegularFile();
        second.close();
        assertThat(registrations(tmp.resolve("users"))).isEmpty();
    }

    @Test
    void aRegistrationOfAProcessGoneDoesNotKeepMountPoints() throws IOException {
        Path users = tmp.resolve("users");
        Path target = tmp.resolve("etc/etcd");
        MountPoints points = new MountPoints(users);
        Files.createFile(users.resolve(Long.MAX_VALUE + "-gone"));
        points.ensure(target, false);

        points.close();

        assertThat(target).doesNotExist();
        assertThat(registrations(users)).isEmpty();
    }
}
