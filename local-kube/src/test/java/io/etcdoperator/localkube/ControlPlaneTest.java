package io.etcdoperator.localkube;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControlPlaneTest {

    @TempDir
    Path dir;

    @Test
    void refusesAWorkDirWithStaleState() throws Exception {
        Files.createDirectories(dir.resolve("etcd/member"));

        assertThatThrownBy(() -> ControlPlane.start(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not empty");
    }
}
