package io.etcdoperator.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A bad logging flag stops the operator before it talks to anything, like every other flag. */
class MainLogFlagsTest {

    @Test
    void aBadLogFormatExitsWithTwoNamingTheFlag() {
        var err = new StringWriter();
        int exit = Main.commandLine(Map.of()).setErr(new PrintWriter(err, true)).execute("--log-format=yaml");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
                .contains("invalid configuration")
                .contains("--log-format")
                .contains("'yaml'");
    }

    @Test
    void aBadLogLevelExitsWithTwoNamingTheFlag() {
        var err = new StringWriter();
        int exit = Main.commandLine(Map.of()).setErr(new PrintWriter(err, true)).execute("--log-level=verbose");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--log-level").contains("'verbose'");
    }

    @Test
    void logFlagsDefaultToTextAtInfo() {
        var main = new Main();
        new picocli.CommandLine(main).parseArgs();

        assertThat(main.logFormat).isEqualTo("text");
        assertThat(main.logLevel).isEqualTo("info");
    }
}
