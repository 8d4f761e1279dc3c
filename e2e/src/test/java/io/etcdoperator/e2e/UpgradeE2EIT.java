package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Rolling upgrades and rolling restarts while a client writes acknowledged, unique keys through the client Service:
 * PVC members restart in place (same member ids and data), Memory members are replaced through learners. Each step
 * prints its numbers (docs/operations.md records them).
 */
@ExtendWith(LocalKubernetesExtension.class)
class UpgradeE2EIT {

    private static final Duration ROLL = Duration.ofMinutes(6);

    /** Both clusters form at the same time; each test then waits for its own. */
    @BeforeAll
    static void createClusters(E2eEnvironment env) {
        env.createCluster(
                env.namespace("upgrade-pvc"),
                "up",
                Map.of("replicas", 3, "version", "3.4.23", "storage", Map.of("size", "256Mi")));
        env.createCluster(
                env.namespace("upgrade-memory"),
                "mem",
                Map.of("replicas", 3, "version", "3.5.16", "storage", Map.of("medium", "Memory", "size", "256Mi")));
    }

    @Test
    void pvcClusterUpgradesPatchAndMinorRollsAResourcesChangeRefusesADowngradeAndRollsBackAStall(E2eEnvironment env)
            throws Exception {
        String ns = "upgrade-pvc";
        env.awaitReady(ns, "up", 3, Duration.ofMinutes(5));
        Map<String, String> ids = memberIds(env, ns, "up");
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "upgrade-pvc-");
        try (WritingClient writer = WritingClient.plaintext(env, ns, "up").start()) {
            Instant t0 = Instant.now();
            env.patchSpec(ns, "up", "{\"version\":\"3.5.16\"}");
            awaitRolled(env, ns, "up", "3.5.16");
            System.out.printf("upgrade 3.4.23 -> 3.5.16 (PVC): %d s; %s%n", secondsSince(t0), writer.summary());

            Instant t1 = Instant.now();
            env.patchSpec(ns, "up", "{\"version\":\"3.5.30\"}");
            awaitRolled(env, ns, "up", "3.5.30");
            System.out.printf("upgrade 3.5.16 -> 3.5.30 (PVC): %d s; %s%n", secondsSince(t1), writer.summary());

            Instant t2 = Instant.now();
            env.patchSpec(ns, "up", "{\"resources\":{\"requests\":{\"cpu\":\"150m\",\"memory\":\"96Mi\"}}}");
            Await.until(
                    "every member Pod requests cpu 150m, READY=3",
                    ROLL,
                    () -> settled(env, ns, "up", "3.5.30")
                            && env.memberPods(ns, "up").stream()
                                    .allMatch(p -> "150m"
                                            .equals(p.getSpec()
                                                    .getContainers()
                                                    .getFirst()
                                                    .getResources()
                                                    .getRequests()
                                                    .get("cpu")
                                                    .toString())));
            System.out.printf(
                    "rolling restart for a resources change (PVC): %d s; %s%n", secondsSince(t2), writer.summary());

            Set<String> podsBefore = podUids(env, ns, "up");
            env.patchSpec(ns, "up", "{\"version\":\"3.4.23\"}");
            Await.until(
                    "Degraded=True/UnsupportedUpgrade",
                    Duration.ofMinutes(1),
                    () -> condition(env, ns, "up", "Degraded")
                            .filter(c -> "UnsupportedUpgrade".equals(c.get("reason")))
                            .isPresent());
            assertThat(observedVersion(env, ns, "up"))
                    .as("latched version after a refused downgrade")
                    .isEqualTo("3.5.30");
            assertThat(podUids(env, ns, "up"))
                    .as("member Pods after a refused downgrade")
                    .isEqualTo(podsBefore);

            Instant t3 = Instant.now();
            env.patchSpec(ns, "up", "{\"version\":\"3.5.99\",\"progressDeadlineSeconds\":45}");
            Await.until(
                    "Degraded=True/UpgradeStalled while quorum holds",
                    Duration.ofMinutes(4),
                    () -> condition(env, ns, "up", "Degraded")
                                    .filter(c -> "UpgradeStalled".equals(c.get("reason")))
                                    .isPresent()
                            && condition(env, ns, "up", "Available")
                                    .filter(c -> "True".equals(c.get("status")))
                                    .isPresent());
            long stalled = secondsSince(t3);
            env.patchSpec(ns, "up", "{\"version\":\"3.5.30\",\"progressDeadlineSeconds\":600}");
            awaitRolled(env, ns, "up", "3.5.30");
            System.out.printf(
                    "stalled upgrade to 3.5.99 reported after %d s, rolled back to 3.5.30 in %d s; %s%n",
                    stalled, secondsSince(t3) - stalled, writer.summary());

            writer.stop();
            Set<String> unread = writer.unreadAcknowledged(dir);
            System.out.printf(
                    "upgrade e2e (PVC) totals: %s; %d leadership moves%n",
                    writer.summary(), events(env, ns, "LeaderMoved").size());
            assertThat(writer.error()).as("writer thread error").isNull();
            assertThat(writer.failed())
                    .as("writes not acknowledged within " + WritingClient.RETRY_FOR.toSeconds() + " s")
                    .isZero();
            assertThat(writer.acknowledged()).as("acknowledged writes").hasSizeGreaterThan(20);
            assertThat(unread).as("acknowledged keys missing at the end").isEmpty();
            assertThat(writer.fewestReady())
                    .as("fewest READY sampled (quorum is 2)")
                    .isGreaterThanOrEqualTo(2);
            assertThat(memberIds(env, ns, "up"))
                    .as("member ids after every roll")
                    .isEqualTo(ids);
            assertThat(events(env, ns, "MemberRolling")).as("restart events").hasSizeGreaterThanOrEqualTo(3 * 3 + 1);
            assertThat(events(env, ns, "LeaderMoved"))
                    .as("the leader moved before it restarted")
                    .isNotEmpty();
        }
    }

    @Test
    void memoryClusterUpgradeReplacesEveryMemberThroughALearner(E2eEnvironment env) throws Exception {
        String ns = "upgrade-memory";
        env.awaitReady(ns, "mem", 3, Duration.ofMinutes(5));
        Map<String, String> ids = memberIds(env, ns, "mem");
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "upgrade-memory-");
        try (WritingClient writer = WritingClient.plaintext(env, ns, "mem").start()) {
            Instant t0 = Instant.now();
            env.patchSpec(ns, "mem", "{\"version\":\"3.5.30\"}");
            awaitRolled(env, ns, "mem", "3.5.30");
            System.out.printf(
                    "upgrade 3.5.16 -> 3.5.30 (Memory, replace through learners): %d s; %s%n",
                    secondsSince(t0), writer.summary());
            writer.stop();
            Set<String> unread = writer.unreadAcknowledged(dir);
            assertThat(writer.error()).as("writer thread error").isNull();
            assertThat(writer.failed())
                    .as("writes not acknowledged within " + WritingClient.RETRY_FOR.toSeconds() + " s")
                    .isZero();
            assertThat(unread).as("acknowledged keys missing at the end").isEmpty();
            assertThat(writer.fewestReady())
                    .as("fewest READY sampled (quorum is 2)")
                    .isGreaterThanOrEqualTo(2);
            Map<String, String> after = memberIds(env, ns, "mem");
            assertThat(after).hasSize(3);
            assertThat(after.values())
                    .as("every member replaced by a new one")
                    .doesNotContainAnyElementsOf(ids.values());
        }
    }

    /** Every member runs {@code version} on a Pod built from the latched spec, READY=3 and nothing left to do. */
    private static void awaitRolled(E2eEnvironment env, String ns, String cluster, String version) {
        Await.until(cluster + " rolled onto " + version, ROLL, () -> settled(env, ns, cluster, version));
    }

    private static boolean settled(E2eEnvironment env, String ns, String cluster, String version) {
        Map<String, Object> status = E2eEnvironment.status(env.cluster(ns, cluster));
        List<GenericKubernetesResource> members = env.members(ns, cluster);
        return version.equals(status.get("version"))
                && Integer.valueOf(3).equals(status.get("readyMembers"))
                && members.size() == 3
                && members.stream()
                        .allMatch(m -> version.equals(E2eEnvironment.status(m).get("version")))
                && condition(env, ns, cluster, "Progressing")
                        .filter(c -> "Reconciled".equals(c.get("reason")))
                        .isPresent();
    }

    @SuppressWarnings("unchecked")
    private static Optional<Map<String, Object>> condition(E2eEnvironment env, String ns, String cluster, String type) {
        Object conditions = E2eEnvironment.status(env.cluster(ns, cluster)).get("conditions");
        if (!(conditions instanceof List<?> list)) {
            return Optional.empty();
        }
        return list.stream()
                .map(c -> (Map<String, Object>) c)
                .filter(c -> type.equals(c.get("type")))
                .findFirst();
    }

    @SuppressWarnings("unchecked")
    private static String observedVersion(E2eEnvironment env, String ns, String cluster) {
        Object observed = E2eEnvironment.status(env.cluster(ns, cluster)).get("observed");
        return observed instanceof Map<?, ?> m ? (String) ((Map<String, Object>) m).get("version") : null;
    }

    /** EtcdMember name to etcd member id. */
    private static Map<String, String> memberIds(E2eEnvironment env, String ns, String cluster) {
        return env.members(ns, cluster).stream()
                .collect(Collectors.toMap(
                        m -> m.getMetadata().getName(),
                        m -> Objects.toString(E2eEnvironment.status(m).get("memberID"))));
    }

    private static Set<String> podUids(E2eEnvironment env, String ns, String cluster) {
        return env.memberPods(ns, cluster).stream()
                .map(p -> p.getMetadata().getUid())
                .collect(Collectors.toSet());
    }

    private static List<Event> events(E2eEnvironment env, String ns, String reason) {
        return env.client().v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()))
                .toList();
    }

    private static long secondsSince(Instant t) {
        return Duration.between(t, Instant.now()).toSeconds();
    }
}
