package io.etcdoperator.e2e;

import static io.etcdoperator.e2e.MemberFacts.memberIds;
import static io.etcdoperator.e2e.MemberFacts.podUids;
import static io.etcdoperator.e2e.MemberFacts.reasons;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The short fault matrix of "repairs only on proof" (docs/operations.md): a mistake on member Pods destroys nothing,
 * and a loss that did happen is reported as what it is, with nothing half-started. A client writes unique keys
 * throughout where the cluster is meant to survive; every acknowledged key is read back.
 */
@ExtendWith(LocalKubernetesExtension.class)
class RepairProofE2EIT {

    private static final String CLUSTER_LABEL = E2eEnvironment.CLUSTER_LABEL;

    /** Removing the cluster label from two healthy Memory Pods once forced a new cluster and discarded both. */
    @Test
    void labelsEditedAwayFromTwoMemoryPodsDestroyNothing(E2eEnvironment env) throws Exception {
        String ns = env.namespace("proof-labels");
        String clusterId = formedMemoryCluster(env, ns, "pl");
        Map<String, String> ids = memberIds(env, ns, "pl");
        Map<String, String> podUids = podUids(env, ns, "pl");
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "proof-labels-");
        try (WritingClient writer = WritingClient.plaintext(env, ns, "pl").start()) {
            Instant t0 = Instant.now();
            List<String> edited = podUids.keySet().stream().limit(2).toList();
            String unlabel = "{\"metadata\":{\"labels\":{\"" + CLUSTER_LABEL + "\":null}}}";
            edited.forEach(pod -> env.client()
                    .pods()
                    .inNamespace(ns)
                    .withName(pod)
                    .patch(PatchContext.of(PatchType.JSON_MERGE), unlabel));
            Await.until(
                    "the operator restored the cluster label on " + edited,
                    Duration.ofMinutes(2),
                    () -> edited.stream().allMatch(pod -> {
                        Pod p = env.client()
                                .pods()
                                .inNamespace(ns)
                                .withName(pod)
                                .get();
                        return p != null
                                && "pl".equals(p.getMetadata().getLabels().get(CLUSTER_LABEL));
                    }));
            Await.until("READY=3 after the edit", Duration.ofMinutes(2), () -> WritingClient.ready(env, ns, "pl") == 3);
            // a few passes more: any step taken on the edit would show now (proof needs two passes 5 s apart)
            Await.until(
                    "three writes acknowledged after the restore",
                    Duration.ofMinutes(1),
                    () -> writer.acknowledged().size() > 3
                            && Duration.between(t0, Instant.now()).toSeconds() > 15);
            writer.stop();
            assertThat(writer.unreadAcknowledged(dir))
                    .as("acknowledged keys missing")
                    .isEmpty();
            assertThat(writer.failed()).as("writes not acknowledged").isZero();
            System.out.printf("labels edited away from 2 of 3 Memory Pods: nothing replaced; %s%n", writer.summary());
        }
        assertThat(memberIds(env, ns, "pl")).as("member ids").isEqualTo(ids);
        assertThat(podUids(env, ns, "pl")).as("the same Pods (and tmpfs)").isEqualTo(podUids);
        assertThat(E2eEnvironment.status(env.cluster(ns, "pl")).get("clusterID"))
                .isEqualTo(clusterId);
        assertThat(reasons(env, ns))
                .as("events")
                .contains("LabelsRestored")
                .doesNotContain("QuorumRecovery", "MemberLost", "DataLost");
    }

    /**
     * Every Memory Pod deleted at once: the data is gone. The status says so and names the ways out; nothing is
     * started; a person's reset-empty (naming the lost cluster id) bootstraps an empty cluster under the same name.
     */
    @Test
    void everyMemoryPodDeletedIsAllMembersLostUntilAPersonResets(E2eEnvironment env) {
        String ns = env.namespace("proof-all-lost");
        String clusterId = formedMemoryCluster(env, ns, "al");
        Instant t0 = Instant.now();
        env.memberPods(ns, "al")
                .forEach(p -> env.client()
                        .pods()
                        .inNamespace(ns)
                        .withName(p.getMetadata().getName())
                        .delete());
        Await.until(
                "Available=False/AllMembersLost",
                Duration.ofMinutes(3),
                () -> EtcdStatus.condition(env.cluster(ns, "al"), "Available")
                        .filter(c -> "AllMembersLost".equals(c.get("reason")))
                        .isPresent());
        long reported = Duration.between(t0, Instant.now()).toSeconds();
        String message = (String) EtcdStatus.condition(env.cluster(ns, "al"), "Available")
                .orElseThrow()
                .get("message");
        assertThat(message)
                .contains("is gone")
                .contains("spec.bootstrap.restore")
                .contains("reset-empty=" + clusterId);
        GenericKubernetesResource lost = env.cluster(ns, "al");
        assertThat(
                        lost.getMetadata().getAnnotations() == null
                                ? Map.of()
                                : lost.getMetadata().getAnnotations())
                .as("no recovery started on its own")
                .doesNotContainKey("etcd-operator.cozystack.io/force-new-cluster-from");
        assertThat(env.memberPods(ns, "al"))
                .as("no member Pod started on lost data")
                .isEmpty();

        Instant t1 = Instant.now();
        env.client()
                .genericKubernetesResources(E2eEnvironment.CLUSTERS)
                .inNamespace(ns)
                .withName("al")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"etcd-operator.cozystack.io/reset-empty\":\"" + clusterId
                                + "\"}}}");
        env.awaitReady(ns, "al", 3, Duration.ofMinutes(4));
        String fresh = (String) E2eEnvironment.status(env.cluster(ns, "al")).get("clusterID");
        assertThat(fresh).as("a new, empty cluster").isNotNull().isNotEqualTo(clusterId);
        assertThat(env.etcdctl(env.endpoints(ns, "al"), "put", "/after-reset", "1")
                        .strip())
                .isEqualTo("OK");
        assertThat(reasons(env, ns)).contains("ClusterReset");
        System.out.printf(
                "every Memory Pod deleted: AllMembersLost reported after %d s; reset-empty to READY=3 in %d s%n",
                reported, Duration.between(t1, Instant.now()).toSeconds());
    }

    /**
     * A voter whose new Pod cannot be scheduled (every node cordoned) is reported, then replaced once the cluster's
     * progressDeadlineSeconds passed while quorum holds; its volume is kept. The others keep their ids.
     */
    @Test
    void aVoterWhosePodCannotBeScheduledIsReplacedAfterTheDeadline(E2eEnvironment env) throws Exception {
        String ns = env.namespace("proof-pending");
        env.createCluster(ns, "pp", Map.of("replicas", 3, "version", "3.5.16", "storage", Map.of("size", "256Mi")));
        env.awaitReady(ns, "pp", 3, Duration.ofMinutes(5));
        Await.until("Progressing=False/Reconciled", Duration.ofMinutes(3), () -> reconciled(env, ns, "pp"));
        // set once formed: a 30 s deadline would also bound the formation itself on a loaded machine
        env.patchSpec(ns, "pp", "{\"progressDeadlineSeconds\":30}");
        String clusterId = (String) E2eEnvironment.status(env.cluster(ns, "pp")).get("clusterID");
        Map<String, String> ids = memberIds(env, ns, "pp");
        String victim = ids.keySet().iterator().next();
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "proof-pending-");
        try (WritingClient writer = WritingClient.plaintext(env, ns, "pp").start()) {
            Map<String, Boolean> cordoned = StuckLearnerE2EIT.cordonAll(env);
            Instant t0 = Instant.now();
            try {
                env.client().pods().inNamespace(ns).withName(victim).delete();
                Await.until(
                        victim + "'s new Pod Pending/Unschedulable",
                        Duration.ofMinutes(1),
                        () -> StuckLearnerE2EIT.unschedulable(env, ns, victim));
                Await.until(
                        "Progressing=True/PodUnschedulable",
                        Duration.ofMinutes(1),
                        () -> EtcdStatus.condition(env.cluster(ns, "pp"), "Progressing")
                                .filter(c -> "PodUnschedulable".equals(c.get("reason")))
                                .isPresent());
                Await.until(
                        victim + " replaced",
                        Duration.ofMinutes(2),
                        () -> env.members(ns, "pp").stream()
                                .noneMatch(m -> m.getMetadata().getName().equals(victim)));
            } finally {
                StuckLearnerE2EIT.restore(env, cordoned);
            }
            long replaced = Duration.between(t0, Instant.now()).toSeconds();
            Await.until(
                    "READY=3 with a new member",
                    Duration.ofMinutes(3),
                    () -> WritingClient.ready(env, ns, "pp") == 3
                            && env.members(ns, "pp").size() == 3);
            System.out.printf(
                    "voter %s unschedulable (nodes cordoned), progressDeadlineSeconds 30: replaced after %d s, "
                            + "READY=3 after %d s; %s%n",
                    victim, replaced, Duration.between(t0, Instant.now()).toSeconds(), writer.summary());
            writer.stop();
            assertThat(writer.unreadAcknowledged(dir))
                    .as("acknowledged keys missing")
                    .isEmpty();
            assertThat(writer.failed()).as("writes not acknowledged").isZero();
        }
        Map<String, String> after = memberIds(env, ns, "pp");
        ids.remove(victim);
        assertThat(after)
                .as("the other two keep their ids")
                .containsAllEntriesOf(ids)
                .doesNotContainKey(victim);
        assertThat(E2eEnvironment.status(env.cluster(ns, "pp")).get("clusterID"))
                .isEqualTo(clusterId);
        var kept = env.client()
                .persistentVolumeClaims()
                .inNamespace(ns)
                .withName("data-" + victim)
                .get();
        assertThat(kept).as("the replaced voter's volume is kept").isNotNull();
        assertThat(kept.getMetadata().getOwnerReferences()).isNullOrEmpty();
    }

    /**
     * An operator upgrade that renders member Pods differently but leaves etcd's container as it was (here: another
     * operator image, which member Pods carry as etcd-guard's installer) restarts no member.
     */
    @Test
    void anOperatorUpgradeThatChangesNothingForEtcdRestartsNoMember(E2eEnvironment env) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(env.operatorFromImage(), "the chart's operator is upgraded");
        String ns = env.namespace("proof-upgrade");
        env.createCluster(ns, "pu", Map.of("replicas", 3, "version", "3.5.16", "storage", Map.of("size", "256Mi")));
        env.awaitReady(ns, "pu", 3, Duration.ofMinutes(5));
        Await.until("Progressing=False/Reconciled", Duration.ofMinutes(3), () -> reconciled(env, ns, "pu"));
        Map<String, String> ids = memberIds(env, ns, "pu");
        Map<String, String> uids = podUids(env, ns, "pu");
        String recreated = uids.keySet().iterator().next();
        try {
            env.upgradeChart(List.of(
                    "--set",
                    "image.tag="
                            + E2eEnvironment.OPERATOR_IMAGE_NEXT.substring(
                                    E2eEnvironment.OPERATOR_IMAGE_NEXT.lastIndexOf(':') + 1)));
            // one Pod made anew shows the new rendering is live; a roll would have begun in the new operator's first
            // pass
            env.client().pods().inNamespace(ns).withName(recreated).delete();
            Await.until(recreated + " made anew with the new agent image", Duration.ofMinutes(2), () -> {
                Pod p = env.client().pods().inNamespace(ns).withName(recreated).get();
                return p != null
                        && !p.getMetadata().getUid().equals(uids.get(recreated))
                        && p.getSpec().getInitContainers().stream()
                                .anyMatch(c -> E2eEnvironment.OPERATOR_IMAGE_NEXT.equals(c.getImage()));
            });
            Await.until(
                    "READY=3 and Reconciled",
                    Duration.ofMinutes(2),
                    () -> WritingClient.ready(env, ns, "pu") == 3 && reconciled(env, ns, "pu"));
            Map<String, String> after = podUids(env, ns, "pu");
            uids.remove(recreated);
            after.remove(recreated);
            assertThat(after).as("the other members' Pods were not restarted").isEqualTo(uids);
            assertThat(memberIds(env, ns, "pu")).isEqualTo(ids); // (MemberRolling events exist: the seed's formation)
        } finally {
            env.upgradeChart(List.of(
                    "--set",
                    "image.tag="
                            + E2eEnvironment.OPERATOR_IMAGE.substring(
                                    E2eEnvironment.OPERATOR_IMAGE.lastIndexOf(':') + 1)));
        }
    }

    /**
     * Two operator replicas at once (the chart's Deployment scaled to 2, leader election on): only the Lease holder
     * acts. The holder is killed in the middle of a scale-up; the other takes the Lease and finishes it, with no second
     * learner add, no member replaced and no acknowledged write lost.
     */
    @Test
    void twoOperatorReplicasActAsOneAndTheSecondFinishesTheFirstsScaleUp(E2eEnvironment env) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(env.operatorFromImage(), "the chart's Deployment is scaled");
        OperatorPod operators = (OperatorPod) env.operator();
        String ns = env.namespace("proof-two-operators");
        String clusterId = formedMemoryCluster(env, ns, "pt");
        Map<String, String> ids = memberIds(env, ns, "pt");
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "proof-two-operators-");
        try (WritingClient writer = WritingClient.plaintext(env, ns, "pt").start()) {
            operators.scaleRunning(2, Duration.ofMinutes(3));
            String holder = leaseHolder(env).orElseThrow();
            assertThat(operators.pods())
                    .extracting(p -> p.getMetadata().getName())
                    .contains(holder);
            Instant t0 = Instant.now();
            env.patchSpec(ns, "pt", "{\"replicas\":5}");
            Await.until(
                    "the first new EtcdMember",
                    Duration.ofMinutes(2),
                    () -> env.members(ns, "pt").size() > 3);
            env.client()
                    .pods()
                    .inNamespace(OperatorPod.NAMESPACE)
                    .withName(holder)
                    .withGracePeriod(0)
                    .delete();
            Await.until(
                    "another replica holds the Lease",
                    Duration.ofMinutes(2),
                    () -> leaseHolder(env).filter(h -> !h.equals(holder)).isPresent());
            env.awaitReady(ns, "pt", 5, Duration.ofMinutes(5));
            Duration full = Duration.between(t0, Instant.now());
            writer.stop();
            assertThat(writer.unreadAcknowledged(dir))
                    .as("acknowledged keys missing")
                    .isEmpty();
            assertThat(writer.failed()).as("writes not acknowledged").isZero();
            System.out.printf(
                    "two operator replicas, Lease holder killed in a 3 -> 5 scale-up: READY=5 %d s after the "
                            + "patch; %s%n",
                    full.toSeconds(), writer.summary());
        } finally {
            operators.scale(1, Duration.ofMinutes(3));
        }
        Map<String, Long> etcdIds = numeric(MemberFacts.etcdMemberIds(env, ns, "pt"));
        assertThat(etcdIds)
                .as("etcd lists exactly the EtcdMembers: no second learner add")
                .hasSize(5)
                .containsAllEntriesOf(numeric(ids))
                .containsOnlyKeys(memberIds(env, ns, "pt").keySet());
        assertThat(memberIds(env, ns, "pt")).as("the first three members kept").containsAllEntriesOf(ids);
        assertThat(E2eEnvironment.status(env.cluster(ns, "pt")).get("clusterID"))
                .isEqualTo(clusterId);
        assertThat(reasons(env, ns)).as("events").doesNotContain("QuorumRecovery", "MemberLost", "DataLost");
    }

    /** A 3-member Memory cluster at READY=3; its cluster id. */
    private static String formedMemoryCluster(E2eEnvironment env, String ns, String name) {
        env.createCluster(
                ns,
                name,
                Map.of("replicas", 3, "version", "3.5.16", "storage", Map.of("medium", "Memory", "size", "256Mi")));
        env.awaitReady(ns, name, 3, Duration.ofMinutes(4));
        return (String) E2eEnvironment.status(env.cluster(ns, name)).get("clusterID");
    }

    /** Member ids as numbers: etcdctl prints them without the leading zeros the EtcdMember status keeps. */
    private static Map<String, Long> numeric(Map<String, String> hexIds) {
        Map<String, Long> out = new TreeMap<>();
        hexIds.forEach((name, hex) -> out.put(name, Long.parseUnsignedLong(hex, 16)));
        return out;
    }

    private static Optional<String> leaseHolder(E2eEnvironment env) {
        var lease = env.client()
                .leases()
                .inNamespace(OperatorPod.NAMESPACE)
                .withName("etcd-operator-leader")
                .get();
        return Optional.ofNullable(lease)
                .map(l -> l.getSpec().getHolderIdentity())
                .filter(h -> !h.isBlank());
    }

    private static boolean reconciled(E2eEnvironment env, String ns, String cluster) {
        return EtcdStatus.condition(env.cluster(ns, cluster), "Progressing")
                .filter(c -> "Reconciled".equals(c.get("reason")))
                .isPresent();
    }
}
