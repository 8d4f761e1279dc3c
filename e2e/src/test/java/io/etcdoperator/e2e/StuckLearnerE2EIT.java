package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A scale-up whose new member cannot start (every node cordoned, so its Pod stays Pending/Unschedulable), then
 * reverted: the learner must not block the cluster. It is removed (MemberRemove, then its EtcdMember), the three
 * voters keep their ids, an event says why, and a client writing the whole time loses no acknowledged key.
 */
@ExtendWith(LocalKubernetesExtension.class)
class StuckLearnerE2EIT {

    @Test
    void aLearnerThatCannotStartIsRemovedWhenTheScaleUpIsReverted(E2eEnvironment env) throws Exception {
        String ns = env.formedPvcCluster("stuck-learner", "sl");
        Map<String, String> ids = memberIds(env, ns, "sl");
        String clusterId = (String) E2eEnvironment.status(env.cluster(ns, "sl")).get("clusterID");
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "stuck-learner-");
        try (WritingClient writer = WritingClient.plaintext(env, ns, "sl").start()) {
            Map<String, Boolean> cordoned = cordonAll(env);
            String learner;
            Instant reverted;
            Duration removed;
            try {
                env.patchSpec(ns, "sl", "{\"replicas\":4}");
                learner = Await.value(
                        "a 4th EtcdMember",
                        Duration.ofMinutes(2),
                        () -> env.members(ns, "sl").stream()
                                .map(m -> m.getMetadata().getName())
                                .filter(n -> !ids.containsKey(n))
                                .findFirst());
                Await.until(
                        learner + " listed by etcd as an unstarted learner",
                        Duration.ofMinutes(2),
                        () -> memberList(env, ns).stream()
                                .anyMatch(l -> l.contains("unstarted") && l.endsWith("true")));
                Await.until(
                        "Pod " + learner + " Pending/Unschedulable",
                        Duration.ofMinutes(1),
                        () -> unschedulable(env, ns, learner));
                Await.until(
                        "Progressing=True/LearnerCatchingUp",
                        Duration.ofMinutes(1),
                        () -> EtcdStatus.condition(env.cluster(ns, "sl"), "Progressing")
                                .filter(c -> "LearnerCatchingUp".equals(c.get("reason")))
                                .isPresent());
                assertThat(WritingClient.ready(env, ns, "sl"))
                        .as("READY while the learner waits")
                        .isEqualTo(3);

                reverted = Instant.now();
                env.patchSpec(ns, "sl", "{\"replicas\":3}");
                Await.until(
                        "EtcdMember " + learner + " gone",
                        Duration.ofMinutes(2),
                        () -> env.members(ns, "sl").stream()
                                .noneMatch(m -> m.getMetadata().getName().equals(learner)));
                removed = Duration.between(reverted, Instant.now());
            } finally {
                restore(env, cordoned);
            }
            Await.until("READY=3, Progressing=False/Reconciled", Duration.ofMinutes(2), () -> {
                GenericKubernetesResource c = env.cluster(ns, "sl");
                return WritingClient.ready(env, ns, "sl") == 3
                        && EtcdStatus.condition(c, "Progressing")
                                .filter(p -> "False".equals(p.get("status")) && "Reconciled".equals(p.get("reason")))
                                .isPresent();
            });
            Duration full = Duration.between(reverted, Instant.now());
            System.out.printf(
                    "learner %s that could not start (nodes cordoned), scale-up reverted: EtcdMember removed "
                            + "after %.1f s, READY=3 and Reconciled after %.1f s; %s%n",
                    learner, removed.toMillis() / 1000.0, full.toMillis() / 1000.0, writer.summary());
            writer.stop();
            assertThat(writer.unreadAcknowledged(dir))
                    .as("acknowledged keys missing")
                    .isEmpty();
            assertThat(writer.failed()).isZero();

            List<String> members = memberList(env, ns);
            assertThat(members).as("etcd's member list").hasSize(3).allMatch(l -> l.endsWith("false"));
            assertThat(members.stream()
                            .map(l -> Long.parseUnsignedLong(l.split(", ")[0], 16))
                            .collect(Collectors.toSet()))
                    .as("the original voters' ids")
                    .isEqualTo(ids.values().stream()
                            .map(id -> Long.parseUnsignedLong(id, 16))
                            .collect(Collectors.toSet()));
            assertThat(memberIds(env, ns, "sl")).as("same members, same ids").isEqualTo(ids);
            GenericKubernetesResource cluster = env.cluster(ns, "sl");
            assertThat(EtcdStatus.condition(cluster, "Available"))
                    .hasValueSatisfying(c -> assertThat(c.get("status")).isEqualTo("True"));
            assertThat(EtcdStatus.condition(cluster, "Degraded"))
                    .hasValueSatisfying(c -> assertThat(c.get("status")).isEqualTo("False"));
            assertThat(E2eEnvironment.status(cluster).get("clusterID"))
                    .as("one cluster id")
                    .isEqualTo(clusterId);
            String why = events(env, ns).stream()
                    .filter(e -> "MemberRemoved".equals(e.getReason())
                            && e.getMessage().contains(learner)
                            && e.getMessage().contains("never started"))
                    .map(Event::getMessage)
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no MemberRemoved event says why " + learner + " went"));
            assertThat(why).contains("Unschedulable");
            System.out.printf("event: MemberRemoved %s%n", why);
        }
    }

    /** As kubectl cordon on every node; returns each node's spec.unschedulable before, to put back. */
    static Map<String, Boolean> cordonAll(E2eEnvironment env) {
        Map<String, Boolean> before = new LinkedHashMap<>();
        for (Node node : env.client().nodes().list().getItems()) {
            before.put(node.getMetadata().getName(), node.getSpec().getUnschedulable());
            patchUnschedulable(env, node.getMetadata().getName(), true);
        }
        return before;
    }

    /** Other test classes share these nodes: each gets back the spec.unschedulable it had. */
    static void restore(E2eEnvironment env, Map<String, Boolean> before) {
        before.forEach((node, unschedulable) -> patchUnschedulable(env, node, unschedulable));
    }

    private static void patchUnschedulable(E2eEnvironment env, String node, Boolean unschedulable) {
        env.client()
                .nodes()
                .withName(node)
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"unschedulable\":" + unschedulable + "}}");
    }

    static boolean unschedulable(E2eEnvironment env, String ns, String name) {
        Pod pod = env.client().pods().inNamespace(ns).withName(name).get();
        return pod != null
                && "Pending".equals(pod.getStatus().getPhase())
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "PodScheduled".equals(c.getType()) && "Unschedulable".equals(c.getReason()));
    }

    /** etcdctl member list lines: id, status, name, peer URLs, client URLs, is learner. */
    private static List<String> memberList(E2eEnvironment env, String ns) {
        return env.etcdctl(env.endpoints(ns, "sl"), "member", "list")
                .strip()
                .lines()
                .toList();
    }

    private static Map<String, String> memberIds(E2eEnvironment env, String ns, String cluster) {
        return env.members(ns, cluster).stream()
                .collect(Collectors.toMap(
                        m -> m.getMetadata().getName(),
                        m -> Objects.toString(E2eEnvironment.status(m).get("memberID"))));
    }

    private static List<Event> events(E2eEnvironment env, String ns) {
        return env.client().v1().events().inNamespace(ns).list().getItems();
    }
}
