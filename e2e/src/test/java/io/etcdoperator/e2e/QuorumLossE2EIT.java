package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A 3-member PVC cluster loses two members whose state cannot be proven (their network is cut), and the survivor is
 * killed without a clean stop. The operator reports QuorumLost and does nothing on its own; once a person names the
 * survivor with force-new-cluster-from, the cluster restarts from that member's data, the two dropped members are
 * discarded and two new ones join as learners. Every key written before the loss is read back, from every member;
 * the survivor keeps its member id.
 */
@ExtendWith(LocalKubernetesExtension.class)
class QuorumLossE2EIT {

    @Test
    void aPersonNamesTheSurvivorAndTheClusterIsRebuiltFromItsData(E2eEnvironment env) {
        String ns = env.formedPvcCluster("quorum-loss", "ql");
        String endpoints = env.endpoints(ns, "ql");
        for (int i = 0; i < 20; i++) {
            env.etcdctl(endpoints, "put", "/acked/" + i, "v" + i);
        }
        List<Pod> pods = env.memberPods(ns, "ql").stream()
                .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
                .toList();
        Pod survivor = pods.get(0);
        // A person names a member that has every acknowledged write (see the helper).
        awaitEveryAcknowledgedKeyApplied(env, survivor);
        commitDatabase(env, survivor);
        String survivorId = memberId(env, ns, survivor.getMetadata().getName());
        pods.subList(1, 3)
                .forEach(p -> env.kube().faults().cutNetwork(ns, p.getMetadata().getName()));
        // then the survivor is killed without a clean stop: its database has every key, but its WAL may count the last
        // one as uncommitted, and --force-new-cluster drops it from the log that joiners would replay
        env.kube().faults().killContainers(ns, survivor.getMetadata().getName());

        Await.until(
                "Available=False/QuorumLost",
                Duration.ofMinutes(2),
                () -> EtcdStatus.condition(env.cluster(ns, "ql"), "Available")
                        .filter(c -> "QuorumLost".equals(c.get("reason")))
                        .isPresent());
        assertThat(EtcdStatus.condition(env.cluster(ns, "ql"), "Available")
                        .orElseThrow()
                        .get("message")
                        .toString())
                .contains("force-new-cluster-from");

        Instant asked = Instant.now();
        env.client()
                .genericKubernetesResources(E2eEnvironment.CLUSTERS)
                .inNamespace(ns)
                .withName("ql")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{" + "\"etcd-operator.cozystack.io/force-new-cluster-from\":\""
                                + survivor.getMetadata().getName() + "\"}}}");
        Await.until("READY=3 again with the annotation gone", Duration.ofMinutes(6), () -> {
            GenericKubernetesResource c = env.cluster(ns, "ql");
            return Integer.valueOf(3).equals(E2eEnvironment.status(c).get("readyMembers"))
                    && (c.getMetadata().getAnnotations() == null
                            || !c.getMetadata()
                                    .getAnnotations()
                                    .containsKey("etcd-operator.cozystack.io/force-new-cluster-from"))
                    && env.memberPods(ns, "ql").size() == 3;
        });
        long seconds = Duration.between(asked, Instant.now()).toSeconds();

        String after = env.endpoints(ns, "ql");
        for (int i = 0; i < 20; i++) {
            assertThat(env.etcdctl(after, "get", "/acked/" + i, "--print-value-only")
                            .strip())
                    .isEqualTo("v" + i);
        }
        for (Pod member : env.memberPods(ns, "ql")) {
            assertThat(appliedKeys(env, member))
                    .as("every acknowledged key on " + member.getMetadata().getName()
                            + ", which joined from the survivor")
                    .isEqualTo(20);
        }
        Set<String> names = env.members(ns, "ql").stream()
                .map(m -> m.getMetadata().getName())
                .collect(Collectors.toSet());
        assertThat(names)
                .contains(survivor.getMetadata().getName())
                .doesNotContain(
                        pods.get(1).getMetadata().getName(),
                        pods.get(2).getMetadata().getName());
        assertThat(memberId(env, ns, survivor.getMetadata().getName()))
                .as("the survivor keeps its member id")
                .isEqualTo(survivorId);
        env.etcdctl(after, "put", "/after", "writable");
        List<String> reasons = env.client().v1().events().inNamespace(ns).list().getItems().stream()
                .map(e -> e.getReason())
                .filter(Objects::nonNull)
                .toList();
        assertThat(reasons).contains("QuorumRecovery", "QuorumRecovered", "LearnerPromoted");
        System.out.printf(
                "quorum loss (2 of 3 PVC members cut off): READY=3 %d s after force-new-cluster-from, "
                        + "20 of 20 keys read back%n",
                seconds);
    }

    /**
     * Two of three PVC members lose their data at once (frozen, volumes wiped, killed). etcd-guard refuses both
     * restarts, which proves the data gone, so the operator restarts the cluster from the survivor without being asked.
     */
    @Test
    void aMajorityThatLostItsDataIsRebuiltFromTheSurvivorByItself(E2eEnvironment env) {
        String ns = env.formedPvcCluster("quorum-data-loss", "qd");
        String clusterId = (String) E2eEnvironment.status(env.cluster(ns, "qd")).get("clusterID");
        for (int i = 0; i < 20; i++) {
            env.etcdctl(env.endpoints(ns, "qd"), "put", "/acked/" + i, "v" + i);
        }
        List<Pod> pods = env.memberPods(ns, "qd").stream()
                .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
                .toList();
        String survivor = pods.get(0).getMetadata().getName();
        awaitEveryAcknowledgedKeyApplied(env, pods.get(0));
        String survivorId = memberId(env, ns, "qd", survivor);
        Instant t0 = Instant.now();
        for (Pod victim : pods.subList(1, 3)) {
            env.kube().faults().freeze(ns, victim.getMetadata().getName());
            env.kube().faults().wipeVolume(ns, victim.getMetadata().getName(), "data");
        }
        pods.subList(1, 3)
                .forEach(p ->
                        env.kube().faults().killContainers(ns, p.getMetadata().getName()));

        awaitRebuilt(env, ns, "qd", survivor, pods);
        long seconds = Duration.between(t0, Instant.now()).toSeconds();
        String after = env.endpoints(ns, "qd");
        for (int i = 0; i < 20; i++) {
            assertThat(env.etcdctl(after, "get", "/acked/" + i, "--print-value-only")
                            .strip())
                    .isEqualTo("v" + i);
        }
        assertThat(memberId(env, ns, "qd", survivor))
                .as("the survivor keeps its member id")
                .isEqualTo(survivorId);
        assertThat(E2eEnvironment.status(env.cluster(ns, "qd")).get("clusterID"))
                .isEqualTo(clusterId);
        List<String> messages = env.client().v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> "QuorumRecovery".equals(e.getReason()))
                .map(e -> e.getMessage())
                .toList();
        assertThat(messages).anyMatch(m -> m.contains("lost their data; restarting the cluster from " + survivor));
        System.out.printf(
                "quorum loss (2 of 3 PVC members lost their data): READY=3 %d s after the wipe, without being "
                        + "asked; 20 of 20 keys read back%n",
                seconds);
    }

    /**
     * A memory cluster loses two Pods, and their data with them. A new Pod would empty the survivor's tmpfs too, so its
     * etcd-guard restarts etcd with --force-new-cluster inside the same Pod when the operator annotates it.
     */
    @Test
    void aMemoryMajorityLostIsRebuiltFromTheSurvivorInItsOwnPod(E2eEnvironment env) {
        String ns = env.namespace("quorum-memory");
        env.createCluster(
                ns,
                "qm",
                Map.of("replicas", 3, "version", "3.5.16", "storage", Map.of("medium", "Memory", "size", "256Mi")));
        env.awaitReady(ns, "qm", 3, Duration.ofMinutes(4));
        String clusterId = (String) E2eEnvironment.status(env.cluster(ns, "qm")).get("clusterID");
        for (int i = 0; i < 20; i++) {
            env.etcdctl(env.endpoints(ns, "qm"), "put", "/acked/" + i, "v" + i);
        }
        List<Pod> pods = env.memberPods(ns, "qm").stream()
                .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
                .toList();
        Pod survivor = pods.get(0);
        String name = survivor.getMetadata().getName();
        awaitEveryAcknowledgedKeyApplied(env, survivor);
        String survivorId = memberId(env, ns, "qm", name);
        Instant t0 = Instant.now();
        pods.subList(1, 3)
                .forEach(p -> env.client()
                        .pods()
                        .inNamespace(ns)
                        .withName(p.getMetadata().getName())
                        .withGracePeriod(0)
                        .delete());

        awaitRebuilt(env, ns, "qm", name, pods);
        long seconds = Duration.between(t0, Instant.now()).toSeconds();
        Pod after = env.client().pods().inNamespace(ns).withName(name).get();
        assertThat(after.getMetadata().getUid())
                .as("the survivor's Pod (and its tmpfs) is the same")
                .isEqualTo(survivor.getMetadata().getUid());
        assertThat(env.client().pods().inNamespace(ns).withName(name).getLog())
                .contains("restarting " + name + " once with --force-new-cluster");
        String endpoints = env.endpoints(ns, "qm");
        for (int i = 0; i < 20; i++) {
            assertThat(env.etcdctl(endpoints, "get", "/acked/" + i, "--print-value-only")
                            .strip())
                    .isEqualTo("v" + i);
        }
        assertThat(memberId(env, ns, "qm", name))
                .as("the survivor keeps its member id")
                .isEqualTo(survivorId);
        assertThat(E2eEnvironment.status(env.cluster(ns, "qm")).get("clusterID"))
                .isEqualTo(clusterId);
        System.out.printf(
                "quorum loss (2 of 3 memory members' Pods lost): READY=3 %d s after the loss, the survivor "
                        + "restarted in its own Pod; 20 of 20 keys read back%n",
                seconds);
    }

    /** READY=3 with the survivor ({@code pods[0]}) and two new members in place of the lost ones, and no annotation. */
    private static void awaitRebuilt(E2eEnvironment env, String ns, String cluster, String survivor, List<Pod> pods) {
        Await.until("READY=3 again, rebuilt from " + survivor, Duration.ofMinutes(6), () -> {
            GenericKubernetesResource c = env.cluster(ns, cluster);
            Set<String> names = env.members(ns, cluster).stream()
                    .map(m -> m.getMetadata().getName())
                    .collect(Collectors.toSet());
            return Integer.valueOf(3).equals(E2eEnvironment.status(c).get("readyMembers"))
                    && names.size() == 3
                    && names.contains(survivor)
                    && !names.contains(pods.get(1).getMetadata().getName())
                    && !names.contains(pods.get(2).getMetadata().getName())
                    && (c.getMetadata().getAnnotations() == null
                            || !c.getMetadata()
                                    .getAnnotations()
                                    .containsKey("etcd-operator.cozystack.io/force-new-cluster-from"));
        });
    }

    private static String memberId(E2eEnvironment env, String ns, String name) {
        return memberId(env, ns, "ql", name);
    }

    private static String memberId(E2eEnvironment env, String ns, String cluster, String name) {
        return env.members(ns, cluster).stream()
                .filter(m -> m.getMetadata().getName().equals(name))
                .findFirst()
                .map(m -> Objects.toString(E2eEnvironment.status(m).get("memberID")))
                .orElse("");
    }

    /** Serializable reads from that member alone: an acknowledged write is on a majority, not on every member. */
    private static void awaitEveryAcknowledgedKeyApplied(E2eEnvironment env, Pod survivor) {
        Await.until(
                "the survivor has applied every acknowledged key",
                Duration.ofSeconds(30),
                () -> appliedKeys(env, survivor) == 20);
    }

    /**
     * etcd's database commits what it applied every 100 ms; a snapshot commits it at once, so what the member applied
     * is in its database file before it is killed.
     */
    private static void commitDatabase(E2eEnvironment env, Pod member) {
        try {
            Path file = Files.createTempDirectory("quorum-loss").resolve("survivor.db");
            env.etcdctl(E2eEnvironment.clientUrl(member), "snapshot", "save", file.toString());
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How many /acked/ keys this member has applied (a local read: no quorum needed, no other member asked). */
    private static long appliedKeys(E2eEnvironment env, Pod member) {
        return env.etcdctl(
                        E2eEnvironment.clientUrl(member),
                        "get",
                        "--consistency=s",
                        "--prefix",
                        "/acked/",
                        "--keys-only")
                .lines()
                .filter(l -> !l.isBlank())
                .count();
    }
}
