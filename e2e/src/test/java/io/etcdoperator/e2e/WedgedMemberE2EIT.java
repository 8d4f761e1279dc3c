package io.etcdoperator.e2e;

import static io.etcdoperator.e2e.MemberFacts.etcdContainer;
import static io.etcdoperator.e2e.MemberFacts.podReady;
import static io.etcdoperator.e2e.MemberFacts.reasons;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Probe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 24, a wedged (stopped) member: a follower's etcd is SIGSTOPped and left stopped. Its peers' TCP connections
 * still open, so only etcd's own answer tells it is wedged. The operator replaces nothing and deletes no volume on this
 * suspicion; it reports the member not ready while the other two keep quorum and acknowledge writes; the kubelet's
 * liveness probe ({@code /livez}, 18 misses 10 s apart) restarts the container in place, and the member comes back
 * with the same member id. A client writes unique keys throughout; every acknowledged key is read back.
 *
 * <p>Only with {@code -De2e.wedged=true}: it waits out the liveness probe's 3 minutes by design.
 */
@EnabledIfSystemProperty(named = "e2e.wedged", matches = "true")
@ExtendWith(LocalKubernetesExtension.class)
class WedgedMemberE2EIT {

    private static final String CLUSTER = "wg";
    /** etcd serves /livez from 3.5.11 on; older members keep a TCP check, which a stopped etcd passes. */
    private static final String VERSION = "3.5.30";

    private static final Duration LIVENESS_WAIT = Duration.ofMinutes(8);

    @Test
    void aStoppedFollowerIsReportedThenRestartedByItsLivenessProbeWithItsIdAndNothingIsReplaced(E2eEnvironment env)
            throws Exception {
        Instant started = Instant.now();
        String ns = env.namespace("wedged");
        env.createCluster(ns, CLUSTER, Map.of("replicas", 3, "version", VERSION, "storage", Map.of("size", "256Mi")));
        env.awaitFormed(ns, CLUSTER);
        Facts before = Facts.settled(env, ns);
        String victim = follower(env, ns);
        Pod pod = env.client().pods().inNamespace(ns).withName(victim).get();
        assertLivezProbe(pod);
        int restarts = restarts(pod);
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "wedged-");
        try (WritingClient writer = WritingClient.plaintext(env, ns, CLUSTER).start()) {
            Await.until(
                    "the client's first acknowledged write",
                    Duration.ofMinutes(1),
                    () -> !writer.acknowledged().isEmpty());
            int ackedBefore = writer.acknowledged().size();
            Instant frozen = Instant.now();
            env.kube().faults().freeze(ns, victim);
            System.out.printf(
                    "wedged: SIGSTOP to follower %s (%s) at %s%n",
                    victim, before.memberIds().get(victim), frozen);
            Wedge wedge = wedgedUntilRestarted(env, ns, victim, before, restarts, frozen);
            Duration toRestart = wedge.toRestart();
            int ackedWhileWedged = writer.acknowledged().size() - ackedBefore;
            Await.until(
                    victim + " Ready again, READY=3",
                    Duration.ofMinutes(3),
                    () -> WritingClient.ready(env, ns, CLUSTER) == 3
                            && podReady(env.client()
                                    .pods()
                                    .inNamespace(ns)
                                    .withName(victim)
                                    .get()));
            Duration toReady = Duration.between(frozen, Instant.now());
            writer.stop();
            System.out.printf(
                    "wedged follower %s: liveness restart %d s after the SIGSTOP, READY=3 %d s after it "
                            + "(%d s after the restart); %d writes acknowledged while it was stopped; %s; test ran %d s%n",
                    victim,
                    toRestart.toSeconds(),
                    toReady.toSeconds(),
                    toReady.minus(toRestart).toSeconds(),
                    ackedWhileWedged,
                    writer.summary(),
                    Duration.between(started, Instant.now()).toSeconds());
            assertThat(writer.unreadAcknowledged(dir))
                    .as("acknowledged keys lost")
                    .isEmpty();
            System.out.printf(
                    "wedged: %d acknowledged, 0 lost, %d not acknowledged within %d s%n",
                    writer.acknowledged().size(), writer.failed(), WritingClient.RETRY_FOR.toSeconds());
            assertThat(ackedWhileWedged)
                    .as("writes acknowledged by the other two while %s was stopped", victim)
                    .isPositive();
            assertThat(writer.fewestReady())
                    .as("READY never below the quorum of 2")
                    .isGreaterThanOrEqualTo(2);
            assertThat(wedge.unavailableLooks())
                    .as("looks at Available not True while 1 of 3 was stopped")
                    .isZero();
        }
        assertRestartedInPlaceOnce(env, ns, victim, pod, restarts);
        assertNothingReplaced(env, ns, before);
    }

    /**
     * Waits, with the follower stopped, for the kubelet to restart its container, checking every second that nothing
     * was replaced meanwhile and counting the looks at Available not True; asserts the member was reported not ready.
     */
    private static Wedge wedgedUntilRestarted(
            E2eEnvironment env, String ns, String victim, Facts before, int restarts, Instant frozen) {
        boolean restarted = false;
        try {
            reportedNotReady(env, ns, victim, frozen);
            AtomicInteger unavailable = new AtomicInteger();
            Await.until(
                    victim + "'s etcd restarted by its liveness probe", LIVENESS_WAIT, Duration.ofSeconds(1), () -> {
                        Facts now = Facts.of(env, ns);
                        assertThat(now.memberIds())
                                .as("EtcdMembers and member ids while %s is stopped", victim)
                                .isEqualTo(before.memberIds());
                        assertThat(now.pvcUids())
                                .as("PVCs while %s is stopped", victim)
                                .isEqualTo(before.pvcUids());
                        if (!EtcdStatus.condition(env.cluster(ns, CLUSTER), "Available")
                                .map(c -> "True".equals(c.get("status")))
                                .orElse(false)) {
                            unavailable.incrementAndGet();
                        }
                        return restarts(env.client()
                                        .pods()
                                        .inNamespace(ns)
                                        .withName(victim)
                                        .get())
                                > restarts;
                    });
            restarted = true;
            Duration toRestart = Duration.between(frozen, Instant.now());
            System.out.printf(
                    "wedged: %s restarted %d s after the SIGSTOP; Available not True in %d of the 1 s looks%n",
                    victim, toRestart.toSeconds(), unavailable.get());
            return new Wedge(toRestart, unavailable.get());
        } finally {
            if (!restarted) {
                env.kube().faults().thaw(ns, victim); // a failed test leaves no stopped process behind
            }
        }
    }

    /** The cluster counts 2 ready and says it is degraded; the member says why it is not ready. */
    private static void reportedNotReady(E2eEnvironment env, String ns, String victim, Instant frozen) {
        Map<String, Object> degraded = Await.value(
                "Degraded=True/MembersUnhealthy, READY=2",
                Duration.ofMinutes(2),
                () -> EtcdStatus.condition(env.cluster(ns, CLUSTER), "Degraded")
                        .filter(c -> "True".equals(c.get("status"))
                                && "MembersUnhealthy".equals(c.get("reason"))
                                && WritingClient.ready(env, ns, CLUSTER) == 2));
        Duration toReport = Duration.between(frozen, Instant.now());
        Map<String, Object> memberReady =
                EtcdStatus.condition(member(env, ns, victim), "Ready").orElseThrow();
        Map<String, Object> status = EtcdStatus.of(env.cluster(ns, CLUSTER));
        System.out.printf(
                "wedged: reported %d s after the SIGSTOP: Degraded %s \"%s\", readyMembers %s, brokenMembers %s, "
                        + "EtcdMember %s Ready=%s/%s \"%s\"%n",
                toReport.toSeconds(),
                degraded.get("reason"),
                degraded.get("message"),
                status.get("readyMembers"),
                status.get("brokenMembers"),
                victim,
                memberReady.get("status"),
                memberReady.get("reason"),
                memberReady.get("message"));
        assertThat(memberReady)
                .as("EtcdMember %s Ready condition", victim)
                .containsEntry("status", "False")
                .containsEntry("reason", "PodNotReady");
        assertThat(status.get("brokenMembers")).as("brokenMembers").isEqualTo(1);
        assertThat(EtcdStatus.condition(env.cluster(ns, CLUSTER), "Available").orElseThrow())
                .as("Available with 2 of 3")
                .containsEntry("status", "True")
                .containsEntry("reason", "QuorumAvailable");
    }

    /** The same Pod (UID), its etcd container restarted exactly once, by the liveness probe. */
    private static void assertRestartedInPlaceOnce(
            E2eEnvironment env, String ns, String victim, Pod before, int restarts) {
        Pod after = env.client().pods().inNamespace(ns).withName(victim).get();
        ContainerStatus etcd = etcdContainer(after).orElseThrow();
        ContainerStateTerminated last = etcd.getLastState().getTerminated();
        System.out.printf(
                "wedged: %s restartCount %d -> %d, last termination exit %s reason %s message \"%s\", "
                        + "started %s finished %s%n",
                victim,
                restarts,
                etcd.getRestartCount(),
                last.getExitCode(),
                last.getReason(),
                last.getMessage(),
                last.getStartedAt(),
                last.getFinishedAt());
        assertThat(after.getMetadata().getUid())
                .as("%s restarted in its Pod, not a new Pod", victim)
                .isEqualTo(before.getMetadata().getUid());
        assertThat(etcd.getRestartCount()).as("%s's etcd restarts", victim).isEqualTo(restarts + 1);
        assertThat(last.getExitCode())
                .as("SIGKILLed: a stopped etcd never handles the SIGTERM")
                .isEqualTo(137);
    }

    /** Same EtcdMembers (by UID), member ids, etcd member list, cluster id and PVCs; no repair in the events. */
    private static void assertNothingReplaced(E2eEnvironment env, String ns, Facts before) {
        Facts after = Facts.of(env, ns);
        assertThat(after.memberUids()).as("EtcdMembers, by UID: none deleted").isEqualTo(before.memberUids());
        assertThat(after.memberIds()).as("member ids").isEqualTo(before.memberIds());
        assertThat(MemberFacts.etcdMemberIds(env, ns, CLUSTER))
                .as("etcd's member list")
                .isEqualTo(before.etcdIds());
        assertThat(after.clusterId()).as("cluster id").isEqualTo(before.clusterId());
        assertThat(after.pvcUids())
                .as("PVCs, by UID: none deleted or made anew")
                .isEqualTo(before.pvcUids());
        System.out.printf(
                "wedged: member ids kept %s; events: %s%n",
                after.memberIds(),
                reasons(env, ns).stream().collect(Collectors.groupingBy(r -> r, TreeMap::new, Collectors.counting())));
        assertThat(reasons(env, ns))
                .as("events")
                .doesNotContain("MemberLost", "DataLost", "QuorumRecovery", "MemberReplacing", "PodFailed");
    }

    /** The liveness probe this test relies on: etcd's /livez, 10 s apart, 18 misses (docs/operations.md). */
    private static void assertLivezProbe(Pod pod) {
        Probe liveness = pod.getSpec().getContainers().stream()
                .filter(c -> "etcd".equals(c.getName()))
                .findFirst()
                .orElseThrow()
                .getLivenessProbe();
        assertThat(liveness.getHttpGet())
                .as("liveness httpGet on etcd %s", VERSION)
                .isNotNull();
        assertThat(liveness.getHttpGet().getPath()).isEqualTo("/livez");
        assertThat(liveness.getPeriodSeconds()).isEqualTo(10);
        assertThat(liveness.getFailureThreshold()).isEqualTo(18);
    }

    /** A member Pod whose etcd is not the leader, asked of every member ("endpoint, id, version, size, leader, ..."). */
    private static String follower(E2eEnvironment env, String ns) {
        Map<String, String> byIp = env.memberPods(ns, CLUSTER).stream()
                .collect(Collectors.toMap(
                        E2eEnvironment::clientUrl, p -> p.getMetadata().getName()));
        return env.etcdctl(String.join(",", byIp.keySet()), "endpoint", "status")
                .lines()
                .filter(l -> !l.isBlank())
                .map(l -> l.split(",\\s*"))
                .filter(f -> "false".equals(f[4]))
                .map(f -> byIp.get(f[0]))
                .sorted()
                .findFirst()
                .orElseThrow(() -> new AssertionError("no follower among " + byIp.values()));
    }

    private static GenericKubernetesResource member(E2eEnvironment env, String ns, String name) {
        return env.client()
                .genericKubernetesResources(E2eEnvironment.MEMBERS)
                .inNamespace(ns)
                .withName(name)
                .get();
    }

    private static int restarts(Pod pod) {
        return etcdContainer(pod).map(ContainerStatus::getRestartCount).orElse(0);
    }

    private record Wedge(Duration toRestart, int unavailableLooks) {}

    /** What must not change: EtcdMembers (UIDs and member ids), etcd's member list, the cluster id, the PVCs. */
    private record Facts(
            Map<String, String> memberUids,
            Map<String, String> memberIds,
            Map<String, String> etcdIds,
            Object clusterId,
            Map<String, String> pvcUids) {

        static Facts of(E2eEnvironment env, String ns) {
            Map<String, String> uids = new TreeMap<>();
            env.members(ns, CLUSTER)
                    .forEach(m ->
                            uids.put(m.getMetadata().getName(), m.getMetadata().getUid()));
            return new Facts(
                    uids,
                    MemberFacts.memberIds(env, ns, CLUSTER),
                    Map.of(),
                    E2eEnvironment.status(env.cluster(ns, CLUSTER)).get("clusterID"),
                    MemberFacts.pvcUids(env, ns));
        }

        /** With etcd's own member list, asked only while every member answers (before the fault). */
        static Facts settled(E2eEnvironment env, String ns) {
            Facts facts = of(env, ns);
            return new Facts(
                    facts.memberUids(),
                    facts.memberIds(),
                    MemberFacts.etcdMemberIds(env, ns, CLUSTER),
                    facts.clusterId(),
                    facts.pvcUids());
        }
    }
}
