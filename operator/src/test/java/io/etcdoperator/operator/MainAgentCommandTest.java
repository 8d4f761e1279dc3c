package io.etcdoperator.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator binary doubles as the snapshot agent: {@code etcd-operator agent snapshot ...}. */
class MainAgentCommandTest {

    @TempDir
    Path dir;

    @Test
    void agentSubcommandRunsTheSnapshotAgent() throws Exception {
        var out = new StringWriter();
        Path terminationLog = Files.createFile(dir.resolve("termination-log"));
        var cli = Main.commandLine(Map.of()).setOut(new PrintWriter(out, true));

        int exit = cli.execute(
                "agent",
                "snapshot",
                "delete",
                "--dir=" + dir,
                "--name=nightly",
                "--uid=u-1",
                "--prefix=prod",
                "--termination-log=" + terminationLog);

        assertThat(exit).isZero();
        assertThat(out.toString()).contains("\"result\":\"absent\"");
        assertThat(Files.readString(terminationLog)).contains("\"result\":\"absent\"");
    }

    @Test
    void agentUsageErrorsExitWithTwo() {
        var cli = Main.commandLine(Map.of()).setErr(new PrintWriter(new StringWriter(), true));

        assertThat(cli.execute("agent", "snapshot", "restore")).isEqualTo(2);
    }

    @Test
    void etcdToolsDirDefaultsToTheImagesDirectory() {
        var main = new Main();
        new picocli.CommandLine(main).parseArgs();

        assertThat(main.etcdToolsDir).isEqualTo("/opt/etcd-tools");
    }
}
