package io.etcdoperator.e2e;

import static io.etcdoperator.e2e.MemberFacts.memberIds;
import static io.etcdoperator.e2e.MemberFacts.podReady;
import static io.etcdoperator.e2e.MemberFacts.reasons;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Faults that must not cost a member its identity, each under a client writing acknowledged keys that are all read
 * back: an evicted PVC member gets a new Pod on its volume (same member id), and a member cut off the network while
 * the others keep their quorum is left alone until it comes back.
 */
@ExtendWith(LocalKubernetesExtension.class)
class MemberFaultsE2EIT {

    /**
     * Spans 4 of the operator's 5 s MembersNotReady rechecks (more on watch events), 20 of etcd's 1 s election timeouts
     * and its 15 s wait pacing; no operator rule replaces a member on a Ready node by time (was 30 s; 10 s saved).
     */
    private static final Duration PARTITION = Duration.ofSeconds(20);

    /** Both clusters form at the same time; each test then waits for its own. */
    @BeforeAll
    static void createClusters(E2eEnvironment env) {
        env.createPvcCluster("evicted", "ev");
        env.createPvcCluster("partition", "pt");
    }

    @Test
    void anEvictedMemberGetsANewPodOnItsVolumeAndKeepsItsId(E2eEnvironment env) throws Exception {
        String ns = "evicted";
        env.awaitFormed(ns, "ev");
        Map<String, String> ids = memberIds(env, ns, "ev");
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "evicted-");
        try (WritingClient writer = WritingClient.plaintext(env, ns, "ev").start()) {
            // the repair takes ~2 s: without this, the fault could come and go before the client's first write
            Await.until(
                    "the client's first acknowledged write",
                    Duration.ofMinutes(1),
                    () -> !writer.acknowledged().isEmpty());
            Pod victim = env.memberPods(ns, "ev").getFirst();
            Instant t0 = Instant.now();
            env.kube().faults().evict(ns, victim.getMetadata().getName());
            Await.until(
                    victim.getMetadata().getName() + " Failed/Evicted (or already deleted)",
                    Duration.ofMinutes(1),
                    () -> env.client().pods().inNamespace(ns).list().getItems().stream()
                            .filter(p -> p.getMetadata()
                                    .getUid()
                                    .equals(victim.getMetadata().getUid()))
                            .allMatch(p -> "Failed".equals(p.getStatus().getPhase())
                                    && "Evicted".equals(p.getStatus().getReason())));
            Await.until(
                    "a new Pod for " + victim.getMetadata().getName() + ", READY=3",
                    Duration.ofMinutes(3),
                    () -> env.memberPods(ns, "ev").stream()
                                    .anyMatch(p -> p.getMetadata()
                                                    .getName()
                                                    .equals(victim.getMetadata().getName())
                                            && !p.getMetadata()
                                                    .getUid()
                                                    .equals(victim.getMetadata().getUid())
                                            && podReady(p))
                            && WritingClient.ready(env, ns, "ev") == 3);
            System.out.printf(
                    "evicted PVC member %s: READY=3 on a new Pod after %d s; %s%n",
                    victim.getMetadata().getName(),
                    Duration.between(t0, Instant.now()).toSeconds(),
                    writer.summary());
            writer.stop();
            assertThat(writer.unreadAcknowledged(dir))
                    .as("acknowledged keys missing")
                    .isEmpty();
            assertThat(writer.failed()).isZero();
        }
        assertThat(memberIds(env, ns, "ev")).as("same members, same ids").isEqualTo(ids);
        assertThat(reasons(env, ns)).contains("PodFailed");
    }

    @Test
    void aPartitionedMemberIsNotReplacedWhileTheOthersKeepQuorum(E2eEnvironment env) throws Exception {
        String ns = "partition";
        env.awaitFormed(ns, "pt");
        Map<String, String> ids = memberIds(env, ns, "pt");
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "partition-");
        try (WritingClient writer = WritingClient.plaintext(env, ns, "pt").start()) {
            String victim = env.memberPods(ns, "pt").getLast().getMetadata().getName();
            env.kube().faults().cutNetwork(ns, victim);
            Await.until(
                    victim + " seen not ready", Duration.ofMinutes(1), () -> WritingClient.ready(env, ns, "pt") == 2);
            Instant end = Instant.now().plus(PARTITION);
            while (Instant.now().isBefore(end)) { // an observation window: nothing may change during it
                assertThat(memberIds(env, ns, "pt"))
                        .as("members while " + victim + " is cut off")
                        .isEqualTo(ids);
                Thread.sleep(500);
            }
            env.kube().faults().healNetwork(ns, victim);
            Instant healed = Instant.now();
            Await.until(
                    "READY=3 after the partition healed",
                    Duration.ofMinutes(2),
                    () -> WritingClient.ready(env, ns, "pt") == 3);
            System.out.printf(
                    "partitioned member %s: left alone for %d s, READY=3 %d s after healing; %s%n",
                    victim,
                    PARTITION.toSeconds(),
                    Duration.between(healed, Instant.now()).toSeconds(),
                    writer.summary());
            writer.stop();
            assertThat(writer.unreadAcknowledged(dir))
                    .as("acknowledged keys missing")
                    .isEmpty();
            assertThat(writer.failed()).isZero();
        }
        assertThat(memberIds(env, ns, "pt")).isEqualTo(ids);
        assertThat(reasons(env, ns)).doesNotContain("MemberLost", "DataLost", "MemberCrashLooping", "PodFailed");
    }
}
