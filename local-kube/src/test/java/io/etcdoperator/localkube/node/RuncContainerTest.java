package io.etcdoperator.localkube.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuncContainerTest {

    @Test
    void oomKillsAreReadFromCgroupV1AndV2Files(@TempDir Path dir) throws Exception {
        Path v1 = Files.writeString(dir.resolve("memory.oom_control"), "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n");
        Path v2 = Files.writeString(dir.resolve("memory.events"), "low 0\nhigh 0\nmax 12\noom 1\noom_kill 2\n");
        Path none = Files.writeString(dir.resolve("none"), "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n");

        assertThat(RuncContainer.oomKills(v1)).isEqualTo(1);
        assertThat(RuncContainer.oomKills(v2)).isEqualTo(2);
        assertThat(RuncContainer.oomKills(none)).isZero();
        assertThat(RuncContainer.oomKills(dir.resolve("missing")))
                .as("a cgroup already removed")
                .isZero();
    }
}
