package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A PVC member whose data directory is emptied (process frozen, volume wiped, process killed) must never run again
 * under its old member id: etcd-guard refuses the start before etcd could take its old id back, and the operator
 * replaces the member (DataLost): MemberRemove of the old id, a new learner with a fresh volume, promotion. First the
 * member that joined last (etcd itself would resync it silently under its old id), then the seed. A client writes
 * acknowledged keys the whole time; every one is read back, and the cluster id never changes. Waits for the seed's
 * one ClusterFormed restart first, so the victims are wiped on a settled cluster.
 */
@ExtendWith(LocalKubernetesExtension.class)
class DataLossE2EIT {

    @Test
    void aMemberThatLostItsDataIsReplacedNeverRestartedUnderItsOldId(E2eEnvironment env) throws Exception {
        String ns = env.namespace("data-loss");
        env.createCluster(ns, "dl", Map.of("replicas", 3, "version", "3.5.16", "storage", Map.of("size", "256Mi")));
        env.awaitReady(ns, "dl", 3, Duration.ofMinutes(5));
        Await.until(
                "Progressing=False/Reconciled (the seed restarted once with existing)",
                Duration.ofMinutes(3),
                () -> EtcdStatus.condition(env.cluster(ns, "dl"), "Progressing")
                        .filter(c -> "Reconciled".equals(c.get("reason")))
                        .isPresent());
        String clusterId = (String) E2eEnvironment.status(env.cluster(ns, "dl")).get("clusterID");
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "data-loss-");
        try (WritingClient writer = WritingClient.plaintext(env, ns, "dl").start()) {
            for (boolean seed : List.of(false, true)) {
                String victim = seed ? seed(env, ns) : lastJoiner(env, ns);
                Instant t0 = Instant.now();
                env.kube().faults().freeze(ns, victim);
                env.kube().faults().wipeVolume(ns, victim, "data");
                env.kube().faults().killContainers(ns, victim);
                Await.until(victim + " replaced by a new member, READY=3", Duration.ofMinutes(4), () -> {
                    Set<String> names = env.members(ns, "dl").stream()
                            .map(m -> m.getMetadata().getName())
                            .collect(Collectors.toSet());
                    return !names.contains(victim) && names.size() == 3 && WritingClient.ready(env, ns, "dl") == 3;
                });
                var kept = env.client()
                        .persistentVolumeClaims()
                        .inNamespace(ns)
                        .withName("data-" + victim)
                        .get();
                assertThat(kept).as("the replaced member's volume is kept").isNotNull();
                assertThat(kept.getMetadata().getOwnerReferences())
                        .as("released: no owner, so no garbage collection")
                        .isNullOrEmpty();
                assertThat(kept.getMetadata().getLabels())
                        .containsEntry("etcd-operator.cozystack.io/retained-from-member", victim);
                System.out.printf(
                        "data loss of the %s member %s: back to READY=3 with a new member after %d s; %s%n",
                        seed ? "seed" : "non-seed",
                        victim,
                        Duration.between(t0, Instant.now()).toSeconds(),
                        writer.summary());
            }
            writer.stop();
            assertThat(writer.unreadAcknowledged(dir))
                    .as("acknowledged keys missing after the repairs")
                    .isEmpty();
            assertThat(writer.failed())
                    .as("writes not acknowledged within 30 s")
                    .isZero();
        }
        assertThat(E2eEnvironment.status(env.cluster(ns, "dl")).get("clusterID"))
                .isEqualTo(clusterId);
        int dataLost = env.client().v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> "DataLost".equals(e.getReason()))
                .mapToInt(e -> e.getCount() == null ? 1 : e.getCount())
                .sum();
        assertThat(dataLost).as("DataLost events (an event's count included)").isEqualTo(2);
        assertThat(env.client().v1().events().inNamespace(ns).list().getItems().stream()
                        .filter(e -> "DataLost".equals(e.getReason()))
                        .map(e -> e.getMessage()))
                .as("the last joiner was stopped by the guard, not by etcd")
                .anyMatch(m -> m.contains("etcd-guard: member"));
    }

    private static String seed(E2eEnvironment env, String ns) {
        return withPod(env, ns)
                .filter(m -> Boolean.TRUE.equals(spec(m).get("bootstrap")))
                .findFirst()
                .map(m -> m.getMetadata().getName())
                .orElseThrow(() -> new AssertionError("no seed member"));
    }

    /** Its initial cluster equals today's membership: etcd would take its old id back and resync without a word. */
    private static String lastJoiner(E2eEnvironment env, String ns) {
        return withPod(env, ns)
                .filter(m -> !Boolean.TRUE.equals(spec(m).get("bootstrap")))
                .max(Comparator.comparing(
                                (GenericKubernetesResource m) -> m.getMetadata().getCreationTimestamp())
                        .thenComparing(m -> m.getMetadata().getName()))
                .map(m -> m.getMetadata().getName())
                .orElseThrow(() -> new AssertionError("no joined member"));
    }

    private static Stream<GenericKubernetesResource> withPod(E2eEnvironment env, String ns) {
        Set<String> pods = env.memberPods(ns, "dl").stream()
                .map(p -> p.getMetadata().getName())
                .collect(Collectors.toSet());
        return env.members(ns, "dl").stream()
                .filter(m -> pods.contains(m.getMetadata().getName()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource r) {
        return (Map<String, Object>) r.getAdditionalProperties().getOrDefault("spec", Map.of());
    }
}
