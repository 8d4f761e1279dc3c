package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A cluster's life on local Kubernetes: scale walk with data written at every step, pause/resume keeping member IDs,
 * a refused invalid change, a member process killed and restarted, and cascade deletion of everything.
 * {@code -De2e.long=true} walks 1 → 3 → 5 → 3 → 1 → 0 → 3; the default run walks 1 → 3 → 1 → 0 → 3.
 */
@ExtendWith(LocalKubernetesExtension.class)
class ClusterLifecycleE2EIT {

    private static final Duration STEP = Duration.ofMinutes(4);

    /** Both clusters form at the same time; each test then waits for its own. */
    @BeforeAll
    static void createClusters(E2eEnvironment env) {
        env.createCluster(
                env.namespace("walk"),
                "walk",
                Map.of("replicas", 1, "version", "3.5.16", "storage", Map.of("size", "256Mi")));
        env.createCluster(
                env.namespace("life"),
                "life",
                Map.of("replicas", 3, "version", "3.4.23", "storage", Map.of("size", "512Mi")));
    }

    @Test
    void scaleWalkKeepsDataClusterIdAndMemberIdsAcrossPause(E2eEnvironment env) {
        String ns = "walk";
        env.awaitReady(ns, "walk", 1, STEP);
        String clusterId = (String) EtcdStatus.of(env.cluster(ns, "walk")).get("clusterID");
        assertThat(clusterId).isNotBlank();

        Map<String, String> written = new HashMap<>();
        List<Integer> walk = Boolean.getBoolean("e2e.long") ? List.of(3, 5, 3, 1) : List.of(3, 1);
        write(env, ns, written, "replicas-1");
        for (int replicas : walk) {
            env.patchSpec(ns, "walk", "{\"replicas\":" + replicas + "}");
            Duration took = env.awaitReady(ns, "walk", replicas, STEP);
            System.out.printf("walk: READY=%d after %d ms%n", replicas, took.toMillis());
            Await.until(
                    "etcd has exactly " + replicas + " members",
                    STEP,
                    () -> env.etcdctl(env.endpoints(ns, "walk"), "member", "list")
                                    .strip()
                                    .lines()
                                    .count()
                            == replicas);
            write(env, ns, written, "replicas-" + replicas);
        }
        Set<String> idsBeforePause = memberIds(env, ns);

        env.patchSpec(ns, "walk", "{\"replicas\":0}");
        Await.until(
                "paused: no member Pods, READY=0",
                STEP,
                () -> env.memberPods(ns, "walk").isEmpty()
                        && Integer.valueOf(0)
                                .equals(EtcdStatus.of(env.cluster(ns, "walk")).get("readyMembers")));
        assertThat(env.client().persistentVolumeClaims().inNamespace(ns).list().getItems())
                .as("PVCs kept while paused")
                .hasSize(1);
        env.patchSpec(ns, "walk", "{\"replicas\":1}");
        env.awaitReady(ns, "walk", 1, STEP);
        assertThat(memberIds(env, ns)).as("member IDs after resume").isEqualTo(idsBeforePause);

        env.patchSpec(ns, "walk", "{\"replicas\":3}");
        env.awaitReady(ns, "walk", 3, STEP);
        write(env, ns, written, "resumed-3");
        String endpoints = env.endpoints(ns, "walk");
        written.forEach((key, value) -> assertThat(
                        env.etcdctl(endpoints, "get", key, "--print-value-only").strip())
                .as(key)
                .isEqualTo(value));
        assertThat(EtcdStatus.of(env.cluster(ns, "walk")).get("clusterID"))
                .as("cluster ID")
                .isEqualTo(clusterId);
    }

    @Test
    void invalidChangeIsRefusedKilledProcessRestartsAndDeleteRemovesEverything(E2eEnvironment env) throws Exception {
        String ns = "life";
        env.awaitReady(ns, "life", 3, STEP);

        if (env.celEnforced()) {
            // the 1.36 server runs the CRD's transition rule: the change never reaches the operator
            assertThatThrownBy(() -> env.patchSpec(ns, "life", "{\"storage\":{\"size\":\"256Mi\"}}"))
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(422);
                        assertThat(e.getMessage()).contains("storage.size cannot be decreased");
                    });
            assertThat(env.cluster(ns, "life").get("spec", "storage", "size").toString())
                    .isEqualTo("512Mi");
        } else {
            // Kubernetes 1.20 does not run the CRD's CEL rules, so the operator's own check is what refuses this.
            env.patchSpec(ns, "life", "{\"storage\":{\"size\":\"256Mi\"}}");
            Await.until(
                    "Degraded=True/InvalidSpec",
                    STEP,
                    () -> EtcdStatus.condition(env.cluster(ns, "life"), "Degraded")
                            .map(c -> "True".equals(c.get("status")) && "InvalidSpec".equals(c.get("reason")))
                            .orElse(false));
            Await.until(
                    "an event for the refusal",
                    STEP,
                    () -> env.client().v1().events().inNamespace(ns).list().getItems().stream()
                            .anyMatch(e -> "InvalidSpec".equals(e.getReason())));
        }
        env.etcdctl(env.endpoints(ns, "life"), "put", "still", "serving");
        assertThat(env.client().persistentVolumeClaims().inNamespace(ns).list().getItems())
                .allSatisfy(pvc -> assertThat(pvc.getSpec()
                                .getResources()
                                .getRequests()
                                .get("storage")
                                .toString())
                        .isEqualTo("512Mi"));
        env.patchSpec(ns, "life", "{\"storage\":{\"size\":\"512Mi\"}}");

        Pod victim = env.memberPods(ns, "life").getFirst();
        String victimId = memberIdOf(env, ns, victim.getMetadata().getName());
        env.kube().faults().killContainers(ns, victim.getMetadata().getName());
        Await.until("the killed member's container restarts", STEP, () -> restarts(env, ns, victim) >= 1);
        env.awaitReady(ns, "life", 3, STEP);
        assertThat(memberIdOf(env, ns, victim.getMetadata().getName()))
                .as("same member ID after restart")
                .isEqualTo(victimId);
        assertThat(env.etcdctl(env.endpoints(ns, "life"), "get", "still", "--print-value-only")
                        .strip())
                .isEqualTo("serving");

        env.client()
                .genericKubernetesResources(E2eEnvironment.CLUSTERS)
                .inNamespace(ns)
                .withName("life")
                .delete();
        Await.until(
                "every Pod, PVC, Service, PDB and EtcdMember of life is gone",
                STEP,
                () -> env.client().pods().inNamespace(ns).list().getItems().isEmpty()
                        && env.client()
                                .persistentVolumeClaims()
                                .inNamespace(ns)
                                .list()
                                .getItems()
                                .isEmpty()
                        && env.client()
                                .services()
                                .inNamespace(ns)
                                .list()
                                .getItems()
                                .isEmpty()
                        && env.client()
                                .policy()
                                .v1beta1()
                                .podDisruptionBudget()
                                .inNamespace(ns)
                                .list()
                                .getItems()
                                .isEmpty()
                        && env.members(ns, "life").isEmpty());
    }

    private static void write(E2eEnvironment env, String ns, Map<String, String> written, String key) {
        String value = "value-of-" + key;
        env.etcdctl(env.endpoints(ns, "walk"), "put", key, value);
        written.put(key, value);
    }

    /** Member IDs (hex) as etcd reports them, for the current member Pods. */
    private static Set<String> memberIds(E2eEnvironment env, String ns) {
        return env.etcdctl(env.endpoints(ns, "walk"), "member", "list")
                .strip()
                .lines()
                .map(line -> line.split(",")[0].strip())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static String memberIdOf(E2eEnvironment env, String ns, String name) {
        List<String> ids = new ArrayList<>();
        for (String line :
                env.etcdctl(env.endpoints(ns, "life"), "member", "list").strip().split("\n")) {
            String[] f = line.split(",");
            if (f.length > 2 && f[2].strip().equals(name)) {
                ids.add(f[0].strip());
            }
        }
        assertThat(ids).as("member named %s", name).hasSize(1);
        return ids.getFirst();
    }

    private static int restarts(E2eEnvironment env, String ns, Pod pod) {
        Pod live = env.client()
                .pods()
                .inNamespace(ns)
                .withName(pod.getMetadata().getName())
                .get();
        return live == null || live.getStatus().getContainerStatuses().isEmpty()
                ? 0
                : live.getStatus().getContainerStatuses().getFirst().getRestartCount();
    }
}
