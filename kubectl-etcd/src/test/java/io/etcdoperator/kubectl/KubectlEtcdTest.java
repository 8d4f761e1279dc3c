package io.etcdoperator.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

class KubectlEtcdTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** Runs the CLI with a client factory that records the flags and fails, so no cluster is needed. */
    private int run(AtomicReference<KubectlEtcd> seen, String... args) {
        KubectlEtcd root = new KubectlEtcd();
        root.kubeClients = flags -> {
            seen.set(flags);
            throw new PluginException("no cluster in unit tests");
        };
        CommandLine line = KubectlEtcd.commandLine(root);
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        return line.execute(args);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "status -n ns -p etcd-0 -k /tmp/kc -s creds --timeout 10s",
                "-n ns -p etcd-0 status -k /tmp/kc -s creds --timeout 10s",
                "-n ns -p etcd-0 -k /tmp/kc -s creds --timeout 10s alarm list",
                "alarm disarm --namespace ns --pod etcd-0 --kubeconfig /tmp/kc --credentials-secret creds --timeout 10s"
            })
    void globalFlagsWorkBeforeAndAfterTheCommand(String args) {
        AtomicReference<KubectlEtcd> seen = new AtomicReference<>();
        int code = run(seen, args.split(" "));
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains("error: no cluster in unit tests");
        assertThat(seen.get().namespace).isEqualTo("ns");
        assertThat(seen.get().pod).isEqualTo("etcd-0");
        assertThat(seen.get().kubeconfig).isEqualTo("/tmp/kc");
        assertThat(seen.get().credentialsSecret).isEqualTo("creds");
        assertThat(seen.get().timeout).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void thePodIsRequired() {
        AtomicReference<KubectlEtcd> seen = new AtomicReference<>();
        assertThat(run(seen, "status", "-n", "ns")).isEqualTo(2);
        assertThat(err.toString()).contains("you must specify the pod with -p/--pod");
        assertThat(seen.get()).as("no cluster contacted").isNull();
    }

    @ParameterizedTest
    @CsvSource({"remove-member", "add-member", "snapshot", "promote"})
    void commandsWithAnArgumentRefuseToRunWithoutIt(String command) {
        assertThat(run(new AtomicReference<>(), command, "-p", "etcd-0")).isEqualTo(2);
        assertThat(err.toString()).contains("Missing required parameter");
    }

    @Test
    void aBadMemberIdOrPeerUrlIsExplainedBeforeAnyCall() {
        AtomicReference<KubectlEtcd> seen = new AtomicReference<>();
        assertThat(run(seen, "remove-member", "not-hex", "-p", "etcd-0")).isEqualTo(1);
        assertThat(err.toString()).contains("member ID must be hex");
        assertThat(run(seen, "add-member", "etcd-3:2380", "-p", "etcd-0")).isEqualTo(1);
        assertThat(err.toString()).contains("PEER_URL must look like https://HOST:2380");
        assertThat(seen.get()).isNull();
    }

    @Test
    void everyCozystackCommandAndOursIsThere() {
        CommandLine line = KubectlEtcd.commandLine(new KubectlEtcd());
        assertThat(line.getSubcommands())
                .containsKeys(
                        "status",
                        "members",
                        "defrag",
                        "compact",
                        "alarm",
                        "forfeit-leadership",
                        "leave",
                        "remove-member",
                        "add-member",
                        "snapshot",
                        "endpoints",
                        "promote");
        assertThat(line.getSubcommands().get("alarm").getSubcommands()).containsKeys("list", "disarm");
    }

    @ParameterizedTest
    @CsvSource({"30s,PT30S", "2m,PT2M", "1h,PT1H", "500ms,PT0.5S", "PT90S,PT1M30S"})
    void timeoutsReadLikeKubectls(String text, String iso) {
        assertThat(new KubectlEtcd.DurationConverter().convert(text)).isEqualTo(Duration.parse(iso));
    }

    @ParameterizedTest
    @CsvSource({"soon", "0s", "-5s"})
    void badTimeoutsAreUsageErrors(String text) {
        assertThat(run(new AtomicReference<>(), "status", "-p", "etcd-0", "--timeout", text))
                .isEqualTo(2);
    }

    @Test
    void aCommandThatOutlivesItsTimeoutFailsWithAMessage() {
        var e = org.assertj.core.api.Assertions.catchThrowableOfType(
                PluginException.class,
                () -> KubectlEtcd.within("defrag", Duration.ofMillis(100), () -> {
                    Thread.sleep(10_000);
                    return 0;
                }));
        assertThat(e).hasMessageContaining("defrag did not finish within 0.1s");
    }
}
