package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Losses the operator must repair: a memory member's Pod, and the operator itself in the middle of a scale-up. */
@ExtendWith(LocalKubernetesExtension.class)
class FailureE2EIT {

    private static final Duration STEP = Duration.ofMinutes(4);

    @Test
    void memoryMemberWhosePodIsLostIsReplacedByANewMember(E2eEnvironment env) {
        String ns = env.namespace("memory-loss");
        env.createCluster(
                ns,
                "mem",
                Map.of("replicas", 3, "version", "3.5.16", "storage", Map.of("medium", "Memory", "size", "256Mi")));
        env.awaitReady(ns, "mem", 3, STEP);
        env.etcdctl(env.endpoints(ns, "mem"), "put", "survives", "yes");
        Pod lost = env.memberPods(ns, "mem").getFirst();
        String lostId = idsByName(env, ns, "mem").get(lost.getMetadata().getName());

        env.client()
                .pods()
                .inNamespace(ns)
                .withName(lost.getMetadata().getName())
                .withGracePeriod(0)
                .delete();

        Await.until("the lost member is gone from etcd and 3 members are started and ready", STEP, () -> {
            Map<String, String> ids = idsByName(env, ns, "mem");
            return ids.size() == 3
                    && !ids.containsValue(lostId)
                    && !ids.containsKey(lost.getMetadata().getName())
                    && Integer.valueOf(3)
                            .equals(EtcdStatus.of(env.cluster(ns, "mem")).get("readyMembers"));
        });
        assertThat(env.etcdctl(env.endpoints(ns, "mem"), "get", "survives", "--print-value-only")
                        .strip())
                .isEqualTo("yes");
    }

    @Test
    void operatorKilledAtRandomPointsDuringScaleUpConvergesWithoutDuplicatesOrOrphans(E2eEnvironment env)
            throws Exception {
        long seed = Long.getLong("e2e.seed", System.nanoTime());
        System.out.println("operator-crash seed: " + seed);
        Random random = new Random(seed);
        String ns = env.namespace("operator-crash");
        env.createCluster(
                ns,
                "crash",
                Map.of("replicas", 1, "version", "3.5.16", "storage", Map.of("medium", "Memory", "size", "256Mi")));
        env.awaitReady(ns, "crash", 1, STEP);

        // SIGKILL at random points needs the host JVM: a killed container would come back after the node's back-off
        env.useHostOperator();
        try {
            env.patchSpec(ns, "crash", "{\"replicas\":5}");
            for (int kill = 0; kill < 4; kill++) {
                Thread.sleep(1_000 + random.nextInt(6_000)); // a random point in the scale-up, not a synchronisation
                env.killOperator();
                env.startOperator();
            }
        } finally {
            env.useDefaultOperator();
        }

        env.awaitReady(ns, "crash", 5, Duration.ofMinutes(6));
        Await.until("etcd lists exactly the 5 EtcdMembers, all started", STEP, () -> {
            Map<String, String> ids = idsByName(env, ns, "crash");
            Set<String> members = env.members(ns, "crash").stream()
                    .map(m -> m.getMetadata().getName())
                    .collect(Collectors.toSet());
            return ids.size() == 5 && ids.keySet().equals(members);
        });
        List<String> lines = env.etcdctl(env.endpoints(ns, "crash"), "member", "list")
                .strip()
                .lines()
                .toList();
        assertThat(lines)
                .hasSize(5)
                .allSatisfy(line -> assertThat(line)
                        .contains(", started, ")
                        .endsWith(", false")); // isLearner: every member promoted
    }

    /** etcd's members by name (unstarted members have no name and map to ""), as hex IDs. */
    private static Map<String, String> idsByName(E2eEnvironment env, String ns, String cluster) {
        return env.etcdctl(env.endpoints(ns, cluster), "member", "list")
                .strip()
                .lines()
                .map(line -> line.split(","))
                .collect(Collectors.toMap(f -> f[2].strip(), f -> f[0].strip(), (a, b) -> a + "+" + b));
    }
}
