package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator's JVM as the image runs it, just started. A JCA provider that java.security names but the jlink'd
 * runtime lacks makes the JDK instantiate every provider on the class path while looking for it: BouncyCastle's (a
 * library of ours for the PKI, never meant as a provider) cost 634 classes and tens of MiB of heap that way
 * (hack/image.sh). netty's ALPN wrapper instantiated the provider on the first TLS dial to etcd whenever its class
 * was on the class path; the image's bcprov goes without it (docs/benchmarks.md). The operator that ran the earlier
 * test classes of this JVM (TLS and auth clusters among them when they ran in it) is checked first, then a freshly
 * started one.
 */
@ExtendWith(LocalKubernetesExtension.class)
class OperatorImageE2EIT {

    @Test
    void theOperatorNeverLoadsBouncyCastleAsAJcaProvider(E2eEnvironment env) throws Exception {
        Assumptions.assumeTrue(env.operatorFromImage(), "the image's runtime");
        String earlier = loadedClasses(env.operator().pid());
        System.out.printf(
                "operator image after the earlier test classes: %d classes loaded, %d of them BouncyCastle's%n",
                earlier.lines().count(),
                earlier.lines().filter(l -> l.contains(" org.bouncycastle.")).count());
        assertThat(earlier)
                .as("classes the operator's JVM loaded while earlier test classes ran")
                .doesNotContain("org.bouncycastle.jce.provider.BouncyCastleProvider");
        // a fresh operator: what the JVM loads at start, whatever ran before
        OperatorPod operators = (OperatorPod) env.operator();
        List<String> before =
                operators.pods().stream().map(p -> p.getMetadata().getUid()).toList();
        operators.pods().forEach(p -> env.client().resource(p).delete());
        Await.until(
                "a new operator Pod Ready",
                Duration.ofMinutes(3),
                () -> operators.pods().size() == 1
                        && !before.contains(
                                operators.pods().getFirst().getMetadata().getUid())
                        && MemberFacts.podReady(operators.pods().getFirst()));
        // Ready means it has spoken TLS to the API server: that is when the JDK builds its provider list
        String classes = loadedClasses(env.operator().pid());
        long ours =
                classes.lines().filter(l -> l.contains(" org.bouncycastle.")).count();
        String rss = Files.readAllLines(
                        Path.of("/proc", String.valueOf(env.operator().pid()), "status"))
                .stream()
                .filter(l -> l.startsWith("VmRSS:"))
                .findFirst()
                .orElse("VmRSS: ?")
                .substring(6)
                .strip();
        System.out.printf(
                "operator image: %d classes loaded, %d of them BouncyCastle's; RSS %s%n",
                classes.lines().count(), ours, rss);
        assertThat(classes)
                .as("classes the operator's JVM loaded")
                .contains("io.etcdoperator.operator.Main")
                .doesNotContain("org.bouncycastle.jce.provider.BouncyCastleProvider")
                .doesNotContain("org.bouncycastle.pqc.jcajce.provider.BouncyCastlePQCProvider");
    }

    /** {@code jcmd <pid> VM.classes} of the test's own JDK, which attaches to the container's JVM by its host pid. */
    private static String loadedClasses(long pid) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process process = new ProcessBuilder(List.of(jcmd.toString(), String.valueOf(pid), "VM.classes"))
                .redirectErrorStream(true)
                .start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("jcmd ended").isTrue();
        assertThat(process.exitValue()).as("jcmd: " + out).isZero();
        return out;
    }
}
