package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.kubectl.KubectlEtcd;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every {@code kubectl etcd} command against operator-made 3-member clusters, reached only through the API server
 * (port forwards), once in plaintext and once with operator-issued mTLS plus authentication, where TLS and the root
 * credentials are found from the member Pod and its EtcdCluster (and once given with -s). Effects are checked with
 * the plugin's own read commands and, for the plaintext cluster, with etcdctl against the Pod IPs.
 */
@ExtendWith(LocalKubernetesExtension.class)
class KubectlEtcdE2EIT {

    private static final Duration STEP = Duration.ofMinutes(5);
    /** The mTLS + auth half runs unless -De2e.kubectlEtcd.secure=false (a quicker plaintext-only run). */
    static final String SECURE_PROPERTY = "e2e.kubectlEtcd.secure";

    private static final Pattern DEFRAG = Pattern.compile("database (\\d+) -> (\\d+) bytes");
    private static final Pattern COMPACTED = Pattern.compile("compacted to revision (\\d+)");
    private static final Pattern ADDED = Pattern.compile("added learner ([0-9a-f]{16})");
    private static final Pattern SNAPSHOT = Pattern.compile(": (\\d+) bytes, sha256 ([0-9a-f]{64})");

    private final List<String> printed = new ArrayList<>();

    @Test
    void everyCommandOnAPlainClusterAndOnAnMtlsClusterWithAuth(E2eEnvironment env) throws Exception {
        Instant started = Instant.now();
        boolean secure = !"false".equals(System.getProperty(SECURE_PROPERTY));
        String plainNs = env.namespace("plugin-plain");
        String secureNs = env.namespace("plugin-secure");
        String password = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        env.client()
                .secrets()
                .inNamespace(secureNs)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName("root-credentials")
                        .endMetadata()
                        .withType("kubernetes.io/basic-auth")
                        .addToStringData(Map.of("username", "root", "password", password))
                        .build())
                .create();
        env.client()
                .secrets()
                .inNamespace(secureNs)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName("wrong-credentials")
                        .endMetadata()
                        .withType("kubernetes.io/basic-auth")
                        .addToStringData(Map.of("password", "not-" + password))
                        .build())
                .create();
        env.createCluster(
                plainNs,
                "plain",
                Map.of("replicas", 3, "version", "3.5.16", "storage", Map.of("medium", "Memory", "size", "256Mi")));
        if (secure) {
            env.createCluster(
                    secureNs,
                    "secure",
                    Map.of(
                            "replicas",
                            3,
                            "version",
                            "3.5.16",
                            "storage",
                            Map.of("medium", "Memory", "size", "256Mi"),
                            "tls",
                            Map.of("operatorIssued", Map.of()),
                            "auth",
                            Map.of("enabled", true, "rootCredentialsSecretRef", Map.of("name", "root-credentials"))));
        }
        env.awaitReady(plainNs, "plain", 3, STEP);
        if (secure) {
            env.awaitReady(secureNs, "secure", 3, STEP);
            Await.until(
                    "status.authEnabled latched",
                    STEP,
                    () -> Boolean.TRUE.equals(
                            EtcdStatus.of(env.cluster(secureNs, "secure")).get("authEnabled")));
        }
        Instant ready = Instant.now();
        System.out.printf(
                "kubectl-etcd e2e: clusters ready after %d ms%n",
                Duration.between(started, ready).toMillis());

        // Something to compact and defragment away on the plaintext cluster: ~2 MB written, then deleted.
        String endpoints = env.endpoints(plainNs, "plain");
        String value = "v".repeat(10_000);
        for (int i = 0; i < 200; i++) {
            env.etcdctl(endpoints, "put", "bulk/" + i, value);
        }
        env.etcdctl(endpoints, "del", "bulk/", "--prefix");

        Instant plainStart = Instant.now();
        everyCommand(env, plainNs, "plain", "http", true);
        Instant secureStart = Instant.now();
        if (secure) {
            everyCommand(env, secureNs, "secure", "https", false);
            // -s names the Secret explicitly; a wrong password is refused and never shown.
            String pod = env.memberPods(secureNs, "secure").stream()
                    .map(p -> p.getMetadata().getName())
                    .sorted()
                    .findFirst()
                    .orElseThrow(); // not the member that left
            assertThat(plugin(env, "members", "-n", secureNs, "-p", pod, "-s", "root-credentials")
                            .out())
                    .contains(pod);
            Result wrong = plugin(env, "members", "-n", secureNs, "-p", pod, "-s", secureNs + "/wrong-credentials");
            assertThat(wrong.code()).isEqualTo(1);
            assertThat(wrong.err()).contains("authentication failed");
        }
        Instant done = Instant.now();
        assertThat(String.join("\n", printed)).as("no password in any output").doesNotContain(password);

        System.out.printf(
                "kubectl-etcd e2e: every command on plain in %d ms, on mTLS+auth in %d ms (%s); total %d ms%n",
                Duration.between(plainStart, secureStart).toMillis(),
                Duration.between(secureStart, done).toMillis(),
                secure ? "run" : "skipped: -D" + SECURE_PROPERTY + "=false",
                Duration.between(started, Instant.now()).toMillis());
    }

    private void everyCommand(E2eEnvironment env, String ns, String cluster, String scheme, boolean reclaimable)
            throws Exception {
        List<String> pods = env.memberPods(ns, cluster).stream()
                .map(p -> p.getMetadata().getName())
                .sorted()
                .toList();
        String first = pods.getFirst();

        Result status = ok(plugin(env, "status", "-n", ns, "-p", first));
        assertThat(status.out()).contains(first, "3.5.16");

        Result members = ok(plugin(env, "members", "-n", ns, "-p", first));
        assertThat(members.out().lines().skip(1)).hasSize(3);
        pods.forEach(p -> assertThat(members.out()).contains(p, scheme + "://" + p + "."));

        Result endpoints = ok(plugin(env, "endpoints", "-n", ns, "-p", first));
        assertThat(endpoints.out().lines().filter(l -> l.contains(" healthy "))).hasSize(3);
        String leader = leader(endpoints.out());

        // compacted through the member defragmented next: a physical compaction returns once that member applied it
        String follower =
                pods.stream().filter(p -> !p.equals(leader)).findFirst().orElseThrow();
        Result compacted = ok(plugin(env, "compact", "-n", ns, "-p", follower));
        long revision = group(COMPACTED, compacted.out(), 1);
        assertThat(revision).isPositive();
        if (reclaimable) {
            assertThat(revision).as("200 puts and a delete").isGreaterThanOrEqualTo(201);
        }
        assertThat(ok(plugin(env, "compact", "-n", ns, "-p", first)).out()).contains("already compacted");

        Result defrag = ok(plugin(env, "defrag", "-n", ns, "-p", follower));
        long before = group(DEFRAG, defrag.out(), 1);
        long after = group(DEFRAG, defrag.out(), 2);
        assertThat(after).isLessThanOrEqualTo(before);
        if (reclaimable) {
            assertThat(after)
                    .as("the deleted 2 MB are gone after compact + defrag")
                    .isLessThan(before - 1_000_000);
        }

        assertThat(ok(plugin(env, "alarm", "list", "-n", ns, "-p", first)).out())
                .isEqualTo("no alarms\n");
        assertThat(ok(plugin(env, "alarm", "disarm", "-n", ns, "-p", first)).out())
                .isEqualTo("no alarms to disarm\n");

        Path snapshot = Files.createTempDirectory("kubectl-etcd").resolve(cluster + ".db");
        Result saved = ok(plugin(env, "snapshot", snapshot.toString(), "-n", ns, "-p", first));
        assertThat(Files.size(snapshot))
                .isEqualTo(group(SNAPSHOT, saved.out(), 1))
                .isPositive();
        assertThat(etcdutl("snapshot", "status", snapshot.toString(), "-w", "json"))
                .as("etcdutl reads the snapshot")
                .contains("\"revision\"");

        assertThat(ok(plugin(env, "forfeit-leadership", "-n", ns, "-p", follower))
                        .out())
                .contains("is not the leader");
        Result moved = ok(plugin(env, "forfeit-leadership", "-n", ns, "-p", leader));
        assertThat(moved.out()).contains("leadership moved from " + leader + " to ");
        String next = moved.out().replaceAll("(?s).* to (\\S+) .*", "$1");
        assertThat(leader(ok(plugin(env, "endpoints", "-n", ns, "-p", first)).out()))
                .isEqualTo(next);

        String peer = scheme + "://" + cluster + "-extra." + ns + ".svc:2380";
        Result added = ok(plugin(env, "add-member", peer, "-n", ns, "-p", first));
        String learner = group(ADDED, added.out());
        assertThat(ok(plugin(env, "members", "-n", ns, "-p", first))
                        .out()
                        .lines()
                        .filter(l -> l.startsWith(learner)))
                .singleElement()
                .satisfies(l -> assertThat(l).contains("unstarted", peer).endsWith("true"));
        Result promote = plugin(env, "promote", learner, "-n", ns, "-p", first);
        assertThat(promote.code()).as("an unstarted learner cannot be promoted").isEqualTo(1);
        assertThat(promote.err()).startsWith("error: ");
        // The operator removes etcd members no EtcdMember owns (orphans) on its next pass; usually we are first.
        Result removed = plugin(env, "remove-member", learner, "-n", ns, "-p", first);
        assertThat(removed.code() == 0 ? removed.out() : removed.err())
                .containsAnyOf("removed member " + learner, "no member with ID " + learner);
        assertThat(ok(plugin(env, "members", "-n", ns, "-p", first)).out()).doesNotContain(learner);

        Result missing = plugin(env, "status", "-n", ns, "-p", "no-such-pod");
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err()).isEqualTo("error: pod " + ns + "/no-such-pod not found\n");

        if ("plain".equals(cluster)) {
            Result launched = launcher(
                    env,
                    "members",
                    "-n",
                    ns,
                    "-p",
                    first,
                    "-k",
                    env.kube().kubeconfig().toString());
            assertThat(launched.code()).as(launched.err()).isZero();
            pods.forEach(p -> assertThat(launched.out()).contains(p));
            Result late = plugin(env, "status", "-n", ns, "-p", first, "--timeout", "1ms");
            assertThat(late.code()).isEqualTo(1);
            assertThat(late.err()).contains("status did not finish within 0.001s");
        }

        // last, as it shrinks the cluster: a follower leaves (a leaving leader would make the next call meet an
        // election)
        String leaving = pods.stream()
                .filter(p -> !p.equals(next) && !p.equals(first))
                .findFirst()
                .orElseThrow();
        String leavingId =
                memberId(ok(plugin(env, "members", "-n", ns, "-p", first)).out(), leaving);
        assertThat(ok(plugin(env, "leave", "-n", ns, "-p", leaving)).out())
                .contains(leaving + " (" + leavingId + ") left");
        assertThat(ok(plugin(env, "members", "-n", ns, "-p", first)).out()).doesNotContain(leavingId);

        // its etcd now stops by itself at every start (etcd-guard says so) and etcd no longer lists it: replaced
        Instant left = Instant.now();
        Await.until(
                leaving + " replaced, READY=3",
                Duration.ofMinutes(3),
                () -> env.members(ns, cluster).stream()
                                .noneMatch(m -> m.getMetadata().getName().equals(leaving))
                        && WritingClient.ready(env, ns, cluster) == 3);
        assertThat(env.client().v1().events().inNamespace(ns).list().getItems().stream()
                        .filter(e -> "MemberLeft".equals(e.getReason()))
                        .map(e -> e.getMessage()))
                .anyMatch(m -> m.startsWith("member " + leaving + " was removed from etcd"));
        System.out.printf(
                "kubectl-etcd e2e: %s replaced %d ms after it left%n",
                leaving, Duration.between(left, Instant.now()).toMillis());
    }

    private Result plugin(E2eEnvironment env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Instant started = Instant.now();
        int code = KubectlEtcd.execute(env.client(), new PrintWriter(out, true), new PrintWriter(err, true), args);
        Result result = new Result(code, out.toString(), err.toString());
        System.out.printf(
                "kubectl etcd %s -> %d in %d ms%n%s%s",
                String.join(" ", args),
                code,
                Duration.between(started, Instant.now()).toMillis(),
                result.out(),
                result.err());
        printed.add(result.out());
        printed.add(result.err());
        return result;
    }

    private Result launcher(E2eEnvironment env, String... args) throws IOException, InterruptedException {
        Path launcher = Path.of(System.getProperty("kubectl.etcd.launcher", "../hack/kubectl-etcd"));
        List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(Arrays.asList(args));
        Instant started = Instant.now();
        Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes());
        String err = new String(process.getErrorStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        System.out.printf(
                "hack/kubectl-etcd %s -> %d in %d ms%n%s%s",
                String.join(" ", args),
                process.exitValue(),
                Duration.between(started, Instant.now()).toMillis(),
                out,
                err);
        printed.add(out);
        printed.add(err);
        return new Result(process.exitValue(), out, err);
    }

    private static Result ok(Result result) {
        assertThat(result.code()).as("exit code; stderr: %s", result.err()).isZero();
        return result;
    }

    /** The NAME of the row whose LEADER column is true, from `endpoints`. */
    private static String leader(String endpoints) {
        return endpoints
                .lines()
                .skip(1)
                .map(l -> l.split("\\s+"))
                .filter(c -> "true".equals(c[3]))
                .map(c -> c[0])
                .reduce((a, b) -> {
                    throw new AssertionError("two leaders: " + a + " and " + b);
                })
                .orElseThrow(() -> new AssertionError("no leader in\n" + endpoints));
    }

    private static String memberId(String members, String name) {
        return members.lines()
                .map(l -> l.split("\\s+"))
                .filter(c -> c[1].equals(name))
                .map(c -> c[0])
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " not in\n" + members));
    }

    private static long group(Pattern pattern, String text, int group) {
        return Long.parseLong(group(pattern, text, group, true));
    }

    private static String group(Pattern pattern, String text) {
        return group(pattern, text, 1, true);
    }

    private static String group(Pattern pattern, String text, int group, boolean required) {
        Matcher m = pattern.matcher(text);
        assertThat(m.find()).as("%s in %s", pattern, text).isEqualTo(required);
        return m.group(group);
    }

    private static String etcdutl(String... args) throws IOException, InterruptedException {
        Path binary = Optional.ofNullable(System.getenv("ETCD35_BIN"))
                .map(d -> Path.of(d, "etcdutl"))
                .filter(Files::isExecutable)
                .orElseThrow(() -> new IllegalStateException("ETCD35_BIN/etcdutl not found"));
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        command.addAll(Arrays.asList(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(out).isZero();
        return out;
    }

    private record Result(int code, String out, String err) {}
}
