package io.etcdoperator.e2e;

import static io.etcdoperator.e2e.MemberFacts.memberIds;
import static io.etcdoperator.e2e.MemberFacts.podReady;
import static io.etcdoperator.e2e.MemberFacts.podUids;
import static io.etcdoperator.e2e.MemberFacts.reasons;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Issue 24: a memory limit too small for etcd, rolled onto a healthy PVC cluster, is reported (the member is named
 * crash-looping, the roll stops) and never repaired by replacement: no member leaves etcd, no PVC is deleted. When a
 * person sets the limit right, the affected member restarts on it first and the cluster is back at READY=3 with the
 * same member ids and cluster id. A client writes unique keys throughout; every acknowledged key is read back.
 *
 * <p>Only with {@code -De2e.crashloop=true} (not in the default run). It starts its own local Kubernetes whose member
 * Pods run etcd from the images in runc with a memory cgroup: host-process members cannot be OOM-killed.
 */
@EnabledIfSystemProperty(named = "e2e.crashloop", matches = "true")
class CrashLoopE2EIT {

    private static final String CLUSTER = "cl";
    /**
     * etcd 3.5.16 is OOM-killed here before it is Ready, so the roll cannot move on (16Mi too); at 24Mi and 32Mi it got
     * Ready and was OOM-killed only later under the writes, after the roll had gone through all three members.
     */
    private static final String TOO_SMALL = System.getProperty("e2e.crashloop.limit", "8Mi");

    private static final String RIGHT = "256Mi";

    private static E2eEnvironment env;
    private static Instant classStarted;

    @BeforeAll
    static void startOwnEnvironment() throws Exception {
        classStarted = Instant.now();
        env = E2eEnvironment.startWithContainerEtcd("crash-loop");
        System.out.printf(
                "crash-loop: own environment (etcd in runc) up after %d s%n",
                Duration.between(classStarted, Instant.now()).toSeconds());
    }

    @AfterAll
    static void closeEnvironment() {
        if (env != null) {
            env.close();
        }
        System.out.printf(
                "crash-loop: class ran %d s, environment included%n",
                Duration.between(classStarted, Instant.now()).toSeconds());
    }

    @Test
    void aMemoryLimitTooSmallIsReportedNeverRepairedAndTheCorrectionIsTakenAtOnce() throws Exception {
        Instant started = Instant.now();
        String ns = env.formedPvcCluster("crash-loop", CLUSTER);
        Snapshot before = Snapshot.of(ns);
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "crash-loop-");
        try (WritingClient writer = WritingClient.plaintext(env, ns, CLUSTER).start()) {
            Await.until(
                    "the client's first acknowledged write",
                    Duration.ofMinutes(1),
                    () -> !writer.acknowledged().isEmpty());
            Instant limited = Instant.now();
            env.patchSpec(ns, CLUSTER, memoryLimit(TOO_SMALL));
            String looping = awaitCrashLooping(ns);
            Duration toReport = Duration.between(limited, Instant.now());
            assertRollStoppedAndNothingRemoved(ns, looping, before);
            Instant fixed = Instant.now();
            env.patchSpec(ns, CLUSTER, memoryLimit(RIGHT));
            Duration toRestart = awaitRestartedFirst(ns, looping, before, fixed);
            awaitRolledOntoTheFix(ns);
            Duration toReady = Duration.between(fixed, Instant.now());
            writer.stop();
            System.out.printf(
                    "memory limit %s on a PVC cluster: %s named MemberCrashLooping after %d s; limit %s set: "
                            + "%s Ready on it after %d s, all 3 on it with READY=3 and Reconciled after %d s; %s; test ran %d s%n",
                    TOO_SMALL,
                    looping,
                    toReport.toSeconds(),
                    RIGHT,
                    looping,
                    toRestart.toSeconds(),
                    toReady.toSeconds(),
                    writer.summary(),
                    Duration.between(started, Instant.now()).toSeconds());
            assertThat(writer.unreadAcknowledged(dir))
                    .as("acknowledged keys missing")
                    .isEmpty();
            assertThat(writer.failed())
                    .as("writes not acknowledged within 30 s")
                    .isZero();
        }
        assertNothingReplaced(ns, before);
    }

    /** Waits for the roll's first member to crash-loop OOMKilled and for the cluster to name it; returns its name. */
    private static String awaitCrashLooping(String ns) {
        Map<String, Object> condition = Await.value(
                "Progressing=True/MemberCrashLooping",
                Duration.ofMinutes(3),
                () -> EtcdStatus.condition(env.cluster(ns, CLUSTER), "Progressing")
                        .filter(c -> "MemberCrashLooping".equals(c.get("reason")) && "True".equals(c.get("status"))));
        String message = String.valueOf(condition.get("message"));
        System.out.printf("Progressing=True/MemberCrashLooping: %s%n", message);
        String looping = env.memberPods(ns, CLUSTER).stream()
                .map(p -> p.getMetadata().getName())
                .filter(name -> message.contains(name + " crash-loops"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("the condition names no member Pod: " + message));
        assertThat(message)
                .as("the condition says the roll stopped, and why")
                .startsWith("the roll stops: ")
                .contains("OOMKilled");
        assertThat(oomKilled(
                        env.client().pods().inNamespace(ns).withName(looping).get()))
                .as(looping + " OOMKilled")
                .isPresent();
        return looping;
    }

    /**
     * A few more failed starts after the report, each a pass of the planner: the other two members still run their
     * first Pods (the roll stopped), and etcd still lists the three members it listed before.
     */
    private static void assertRollStoppedAndNothingRemoved(String ns, String looping, Snapshot before) {
        int reported = restarts(ns, looping);
        String rolled = podUids(env, ns, CLUSTER).get(looping);
        Await.until(
                looping + " restarted twice more while crash-looping",
                Duration.ofMinutes(2),
                () -> restarts(ns, looping) >= reported + 2);
        Map<String, String> uids = podUids(env, ns, CLUSTER);
        assertThat(uids.get(looping))
                .as("the crash-looping member's Pod from the roll, restarted in place, kept")
                .isEqualTo(rolled)
                .isNotEqualTo(before.podUids().get(looping));
        uids.remove(looping);
        Map<String, String> others = new TreeMap<>(before.podUids());
        others.remove(looping);
        assertThat(uids).as("the other members' Pods: the roll stopped").isEqualTo(others);
        assertThat(MemberFacts.etcdMemberIds(env, ns, CLUSTER))
                .as("etcd's members while " + looping + " crash-loops")
                .isEqualTo(before.etcdIds());
        assertThat(memberIds(env, ns, CLUSTER))
                .as("EtcdMembers while crash-looping")
                .isEqualTo(before.memberIds());
    }

    /**
     * The corrected spec is latched at once and the down member rolls first: its Pod is made anew with the right limit
     * while the other two still run their first Pods. Returns the time from the fix until that Pod was Ready.
     */
    private static Duration awaitRestartedFirst(String ns, String looping, Snapshot before, Instant fixed) {
        Pod fresh = Await.value(
                looping + " made anew with limit " + RIGHT, Duration.ofMinutes(2), () -> onTheFix(ns, looping));
        Map<String, String> uids = podUids(env, ns, CLUSTER);
        long othersStillFirst = before.podUids().entrySet().stream()
                .filter(e -> !e.getKey().equals(looping) && e.getValue().equals(uids.get(e.getKey())))
                .count();
        System.out.printf(
                "%s made anew on %s %d s after the fix; %d of the other 2 members not restarted then%n",
                looping, RIGHT, Duration.between(fixed, Instant.now()).toSeconds(), othersStillFirst);
        assertThat(othersStillFirst)
                .as("the down member rolled before the two healthy ones")
                .isEqualTo(2);
        Await.until(
                looping + " Ready on limit " + RIGHT,
                Duration.ofMinutes(2),
                () -> onTheFix(ns, looping)
                        .filter(p -> p.getMetadata()
                                        .getUid()
                                        .equals(fresh.getMetadata().getUid())
                                && podReady(p))
                        .isPresent());
        return Duration.between(fixed, Instant.now());
    }

    private static Optional<Pod> onTheFix(String ns, String member) {
        return env.memberPods(ns, CLUSTER).stream()
                .filter(p -> p.getMetadata().getName().equals(member) && RIGHT.equals(limit(p)))
                .findFirst();
    }

    /** The rest of the roll: every member on the right limit, READY=3, Progressing=False/Reconciled. */
    private static void awaitRolledOntoTheFix(String ns) {
        Await.until("every member Pod with limit " + RIGHT, Duration.ofMinutes(4), () -> {
            var pods = env.memberPods(ns, CLUSTER);
            return pods.size() == 3 && pods.stream().allMatch(p -> RIGHT.equals(limit(p)) && podReady(p));
        });
        env.awaitFormed(ns, CLUSTER);
    }

    /** Same members, ids, cluster id and volumes as before the bad limit; no repair step in the events. */
    private static void assertNothingReplaced(String ns, Snapshot before) {
        Snapshot after = Snapshot.of(ns);
        assertThat(after.memberIds()).as("EtcdMembers and their member ids").isEqualTo(before.memberIds());
        assertThat(after.etcdIds()).as("etcd's member list").isEqualTo(before.etcdIds());
        assertThat(after.clusterId()).as("cluster id").isEqualTo(before.clusterId());
        assertThat(after.pvcUids())
                .as("PVCs, by UID: none deleted or made anew")
                .isEqualTo(before.pvcUids());
        System.out.printf(
                "events: %s%n",
                reasons(env, ns).stream().collect(Collectors.groupingBy(r -> r, TreeMap::new, Collectors.counting())));
        assertThat(reasons(env, ns))
                .as("events")
                .contains("MemberCrashLooping")
                .doesNotContain("DataLost", "MemberLost", "MemberReplacing", "QuorumRecovery", "PodFailed");
    }

    private static String memoryLimit(String amount) {
        return "{\"resources\":{\"limits\":{\"memory\":\"" + amount + "\"}}}";
    }

    private static String limit(Pod pod) {
        return pod.getSpec().getContainers().stream()
                .filter(c -> "etcd".equals(c.getName()))
                .findFirst()
                .map(c -> c.getResources())
                .map(r -> r.getLimits())
                .map(l -> l.get("memory"))
                .map(String::valueOf)
                .orElse("");
    }

    private static Optional<ContainerStatus> oomKilled(Pod pod) {
        return MemberFacts.etcdContainer(pod)
                .filter(c -> c.getLastState() != null
                        && c.getLastState().getTerminated() != null
                        && "OOMKilled".equals(c.getLastState().getTerminated().getReason()));
    }

    private static int restarts(String ns, String member) {
        return Optional.ofNullable(
                        env.client().pods().inNamespace(ns).withName(member).get())
                .flatMap(MemberFacts::etcdContainer)
                .map(ContainerStatus::getRestartCount)
                .orElse(0);
    }

    /** What must not change: EtcdMembers and ids, etcd's member list, the cluster id, the PVCs; and the Pods then. */
    private record Snapshot(
            Map<String, String> memberIds,
            Map<String, String> etcdIds,
            Object clusterId,
            Map<String, String> pvcUids,
            Map<String, String> podUids) {

        static Snapshot of(String ns) {
            Object clusterId = E2eEnvironment.status(env.cluster(ns, CLUSTER)).get("clusterID");
            return new Snapshot(
                    MemberFacts.memberIds(env, ns, CLUSTER),
                    MemberFacts.etcdMemberIds(env, ns, CLUSTER),
                    clusterId,
                    MemberFacts.pvcUids(env, ns),
                    MemberFacts.podUids(env, ns, CLUSTER));
        }
    }
}
