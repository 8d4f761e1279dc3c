package io.etcdoperator.bench;

import io.etcdoperator.e2e.Await;
import io.etcdoperator.e2e.E2eEnvironment;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Memory-backed EtcdClusters created for the benchmark, each alone in its own namespace, and the conditions the
 * benchmark times: READY=N as `kubectl get etcdcluster` shows it, and full strength (N Ready Pods, N voters).
 */
final class BenchClusters {

    static final String VERSION = "3.5.16";
    // not 64Mi: etcd preallocates a 64 MiB WAL segment, and a 64Mi tmpfs then fails "no space left on device"
    static final String TMPFS_SIZE = "256Mi";
    private static final Duration TEARDOWN = Duration.ofMinutes(10);

    private final E2eEnvironment env;

    BenchClusters(E2eEnvironment env) {
        this.env = env;
    }

    /** Creates namespace {@code name} holding one EtcdCluster {@code name} with {@code replicas} tmpfs members. */
    void create(String name, int replicas) {
        env.namespace(name);
        env.createCluster(
                name,
                name,
                Map.of(
                        "replicas",
                        replicas,
                        "version",
                        VERSION,
                        "storage",
                        Map.of("medium", "Memory", "size", TMPFS_SIZE)));
    }

    void awaitReady(String name, int replicas, Duration timeout) {
        env.awaitReady(name, name, replicas, timeout);
    }

    /** Looked at every 20 ms, as EtcdFloor retries: the default 250 ms poll would add about 125 ms to a timing. */
    void awaitReadyPrecisely(String name, int replicas, Duration timeout) {
        env.awaitReady(name, name, replicas, timeout, Duration.ofMillis(20));
    }

    void awaitFullStrength(String name, int replicas, Duration timeout) {
        awaitFullStrength(name, replicas, "", timeout);
    }

    /** Full strength, with no Pod of uid {@code lostPodUid} among the members any more. */
    void awaitFullStrength(String name, int replicas, String lostPodUid, Duration timeout) {
        Await.until(
                name + " at full strength: READY=" + replicas + " with " + replicas + " voters",
                timeout,
                () -> fullStrength(name, replicas, lostPodUid));
    }

    List<Pod> memberPods(String name) {
        return env.memberPods(name, name);
    }

    void scale(String name, int replicas) {
        env.patchSpec(name, name, "{\"replicas\":" + replicas + "}");
    }

    /** Deletes the Pod at once (grace 0), as when its node is lost; returns its uid. */
    String deletePodNow(Pod pod) {
        env.client()
                .pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName())
                .withGracePeriod(0)
                .delete();
        return pod.getMetadata().getUid();
    }

    /** Deletes the namespaces and waits until none of their Pods is left, so they do not load the next step. */
    void delete(Collection<String> names) {
        for (String name : names) {
            env.client().namespaces().withName(name).delete();
        }
        Await.until(
                "Pods of " + names + " gone",
                TEARDOWN,
                () -> names.stream()
                        .allMatch(ns -> env.client()
                                .pods()
                                .inNamespace(ns)
                                .list()
                                .getItems()
                                .isEmpty()));
    }

    private boolean fullStrength(String name, int replicas, String lostPodUid) {
        Object ready = E2eEnvironment.status(env.cluster(name, name)).get("readyMembers");
        List<Pod> pods = env.memberPods(name, name);
        boolean podsReady = pods.size() == replicas
                && pods.stream().allMatch(BenchClusters::ready)
                && pods.stream().noneMatch(p -> p.getMetadata().getUid().equals(lostPodUid));
        return Integer.valueOf(replicas).equals(ready)
                && podsReady
                && env.members(name, name).stream()
                                .filter(m -> Boolean.TRUE.equals(
                                        E2eEnvironment.status(m).get("isVoter")))
                                .count()
                        == replicas
                && etcdHasOnlyStartedVoters(name, replicas);
    }

    /** etcd's own member list (columns: id, status, name, peer URLs, client URLs, isLearner). */
    private boolean etcdHasOnlyStartedVoters(String name, int replicas) {
        List<String[]> members = env.etcdctl(env.endpoints(name, name), "member", "list")
                .strip()
                .lines()
                .map(line -> line.split(",\\s*"))
                .toList();
        return members.size() == replicas
                && members.stream().allMatch(f -> f.length == 6 && "started".equals(f[1]) && "false".equals(f[5]));
    }

    private static boolean ready(Pod pod) {
        return pod.getStatus() != null
                && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
