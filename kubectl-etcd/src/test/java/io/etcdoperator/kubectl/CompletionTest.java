package io.etcdoperator.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code completion bash|zsh}, kubectl's {@code __complete} protocol, and {@code version}. */
class CompletionTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine line = KubectlEtcd.commandLine(new KubectlEtcd());
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        return line.execute(args);
    }

    private List<String> complete(String... words) {
        Completion.complete(KubectlEtcd.commandLine(new KubectlEtcd()), List.of(words), new PrintWriter(out, true));
        return out.toString().lines().toList();
    }

    @Test
    void commandsCompleteAfterASpaceWithoutFileNames() {
        List<String> lines = complete("");
        assertThat(lines)
                .contains("status", "members", "endpoints", "alarm", "completion", "version")
                .doesNotContain(Completion.COMPLETE);
        assertThat(lines.getLast()).isEqualTo(":4");
    }

    @Test
    void aPrefixCompletesToWholeWords() {
        assertThat(complete("st")).containsExactly("status", ":4");
    }

    @Test
    void flagsOfTheCommandComplete() {
        assertThat(complete("members", "--")).contains("--output", "--pod", "--namespace", "--context");
    }

    @Test
    void outputFormatsCompleteAsTyped() {
        assertThat(complete("status", "-o", "")).containsExactlyInAnyOrder("table", "json", "yaml", ":4");
    }

    @Test
    void alarmSubcommandsComplete() {
        assertThat(complete("alarm", "")).contains("list", "disarm");
    }

    @Test
    void nothingToOfferLetsTheShellCompleteFileNames() {
        assertThat(complete("snapshot", "/tmp/sn")).containsExactly(":0");
    }

    @Test
    void bashAndZshGetPicocliScriptForTheCommand() {
        assertThat(run("completion", "bash")).isEqualTo(0);
        String script = out.toString();
        assertThat(script)
                .contains("complete -F _complete_kubectl-etcd")
                .contains("bashcompinit")
                .contains("status")
                .contains("--output");
        out.getBuffer().setLength(0);
        assertThat(run("completion", "zsh")).isEqualTo(0);
        assertThat(out.toString()).isEqualTo(script);
    }

    @Test
    void otherShellsAreAUsageError() {
        assertThat(run("completion", "fish")).isEqualTo(2);
        assertThat(err.toString()).contains("SHELL must be bash or zsh, not fish");
    }

    @Test
    void versionNamesThePluginAndTheRuntime() {
        assertThat(run("version")).isEqualTo(0);
        assertThat(out.toString())
                .startsWith("kubectl-etcd ")
                .contains("java " + System.getProperty("java.version") + " (" + System.getProperty("java.home") + ")");
        assertThat(VersionCommand.text("25.0.1", "/opt/x/runtime")).endsWith("\njava 25.0.1 (/opt/x/runtime)\n");
    }
}
