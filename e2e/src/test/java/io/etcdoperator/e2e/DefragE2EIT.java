package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * EtcdDefrag runs carried out by the cluster planner on a 3-member cluster after overwrites and compaction: each rule
 * kind decides per member, the leader goes last (after MoveLeader), sizes shrink, ttlSecondsAfterFinished removes a
 * finished run, and a schedule fires. A second cluster with a small quota is pushed into NOSPACE by writes and recovers on its own with
 * every acknowledged key kept. Numbers are printed for docs/operations.md.
 */
@ExtendWith(LocalKubernetesExtension.class)
class DefragE2EIT {

    static final ResourceDefinitionContext DEFRAGS = new ResourceDefinitionContext.Builder()
            .withGroup("etcd-operator.cozystack.io")
            .withVersion("v1alpha2")
            .withKind("EtcdDefrag")
            .withPlural("etcddefrags")
            .withNamespaced(true)
            .build();
    static final ResourceDefinitionContext SCHEDULES = new ResourceDefinitionContext.Builder()
            .withGroup("etcd-operator.cozystack.io")
            .withVersion("v1alpha2")
            .withKind("EtcdDefragSchedule")
            .withPlural("etcddefragschedules")
            .withNamespaced(true)
            .build();
    private static final String VALUE = "v".repeat(100 * 1024); // one argv string stays under 128 KiB
    private static final Duration RUN = Duration.ofMinutes(3);

    /** Both clusters form at the same time; each test then waits for its own. */
    @BeforeAll
    static void createClusters(E2eEnvironment env) {
        env.createCluster(
                env.namespace("defrag"),
                "dfg",
                Map.of(
                        "replicas",
                        3,
                        "version",
                        "3.5.16",
                        "storage",
                        Map.of("medium", "Memory", "size", "256Mi"),
                        "options",
                        Map.of("quotaBackendBytes", 134217728)));
        env.createCluster(
                env.namespace("nospace"),
                "full",
                Map.of(
                        "replicas",
                        3,
                        "version",
                        "3.5.16",
                        "storage",
                        Map.of("medium", "Memory", "size", "256Mi"),
                        "options",
                        Map.of("quotaBackendBytes", 8388608)));
    }

    @Test
    void eachRuleKindDefragmentsOrSkipsAndTheLeaderGoesLast(E2eEnvironment env) {
        String ns = "defrag";
        env.awaitReady(ns, "dfg", 3, Duration.ofMinutes(4));
        String endpoints = env.endpoints(ns, "dfg");
        env.etcdctl(endpoints, "put", "/kept", "acknowledged before any defrag");
        churnAndCompact(env, endpoints, 120);

        Map<String, Object> skipped =
                awaitFinished(env, ns, create(env, ns, "too-high", Map.of("freeSpaceAbove", "1Gi"), null));
        assertThat(skipped.get("phase")).isEqualTo("Complete");
        assertThat(skipped.get("defragmented")).isEqualTo(0);
        assertThat(members(skipped)).hasSize(3).allSatisfy(m -> {
            assertThat(m.get("outcome")).isEqualTo("Skipped");
            assertThat(m.get("reason")).isEqualTo("BelowThreshold");
        });

        Instant t0 = Instant.now();
        Map<String, Object> byFree =
                awaitFinished(env, ns, create(env, ns, "free-space", Map.of("freeSpaceAbove", "1Mi"), null));
        long seconds = Duration.between(t0, Instant.now()).toSeconds();
        assertEveryMemberDefragmented(byFree);
        Map<String, Object> leader = members(byFree).stream()
                .filter(m -> "leader".equals(m.get("role")))
                .findFirst()
                .orElseThrow();
        String lastFinished = members(byFree).stream()
                .map(m -> (String) m.get("finishedAt"))
                .max(Comparator.naturalOrder())
                .orElseThrow();
        assertThat(leader.get("finishedAt")).as("the leader finishes last").isEqualTo(lastFinished);
        assertThat(events(env, ns, "LeaderMoved"))
                .as("leadership handed over before the leader's defragment")
                .anySatisfy(e -> assertThat(e.getMessage()).contains("defragmented"));
        System.out.printf("defrag freeSpaceAbove=1Mi: 3 members in %d s, %s%n", seconds, sizes(byFree));

        churnAndCompact(env, endpoints, 60);
        Map<String, Object> byQuota = awaitFinished(
                env, ns, create(env, ns, "quota-pressure", Map.of("quotaUsageAbove", "1%", "minReclaim", "1Mi"), null));
        // Each member is judged by its own Status when the run starts. etcd counts the pages a compaction freed only
        // after the member's next commit, and only the member that answered the physical compaction commits at once, so
        // another may still report less than 1 MiB reclaimable: this run must defragment at least one member and skip
        // only with BelowThreshold; the 'all' run below then takes every member.
        assertThat(byQuota.get("phase")).isEqualTo("Complete");
        assertThat(members(byQuota))
                .hasSize(3)
                .allSatisfy(m -> assertThat(m.get("outcome")).isIn("Defragmented", "Skipped"))
                .anySatisfy(m -> assertThat(m.get("outcome")).isEqualTo("Defragmented"))
                .filteredOn(m -> "Skipped".equals(m.get("outcome")))
                .allSatisfy(m -> assertThat(m.get("reason")).isEqualTo("BelowThreshold"));
        System.out.printf("defrag quotaUsageAbove=1%%,minReclaim=1Mi: %s%n", sizes(byQuota));

        String all = create(env, ns, "all", Map.of("all", true), 3);
        Map<String, Object> allStatus = awaitFinished(env, ns, all);
        assertThat(allStatus.get("phase")).isEqualTo("Complete");
        assertThat(allStatus.get("defragmented")).isEqualTo(3);
        Await.until(
                "defrag 'all' deleted 3 s after it finished",
                Duration.ofMinutes(1),
                () -> env.client()
                                .genericKubernetesResources(DEFRAGS)
                                .inNamespace(ns)
                                .withName(all)
                                .get()
                        == null);
        assertThat(env.etcdctl(endpoints, "get", "/kept", "--print-value-only").strip())
                .isEqualTo("acknowledged before any defrag");
        assertThat(env.client()
                        .genericKubernetesResources(DEFRAGS)
                        .inNamespace(ns)
                        .withName("too-high")
                        .get())
                .as("a run without ttlSecondsAfterFinished stays")
                .isNotNull();

        Instant t1 = Instant.now();
        GenericKubernetesResource schedule = new GenericKubernetesResource();
        schedule.setApiVersion("etcd-operator.cozystack.io/v1alpha2");
        schedule.setKind("EtcdDefragSchedule");
        schedule.setMetadata(new ObjectMetaBuilder()
                .withName("every-minute")
                .withNamespace(ns)
                .build());
        schedule.setAdditionalProperty(
                "spec",
                Map.of(
                        "clusterRef",
                        Map.of("name", "dfg"),
                        "schedule",
                        "* * * * *",
                        "rule",
                        Map.of("all", true),
                        "successfulRunsHistoryLimit",
                        1));
        env.client()
                .genericKubernetesResources(SCHEDULES)
                .inNamespace(ns)
                .resource(schedule)
                .create();
        String lastSuccess = Await.value(
                "the schedule's first defrag completed",
                Duration.ofMinutes(3),
                () -> Optional.ofNullable(env.client()
                                .genericKubernetesResources(SCHEDULES)
                                .inNamespace(ns)
                                .withName("every-minute")
                                .get())
                        .map(E2eEnvironment::status)
                        .map(st -> (String) st.get("lastSuccessfulTime")));
        List<GenericKubernetesResource> scheduled = env.client()
                .genericKubernetesResources(DEFRAGS)
                .inNamespace(ns)
                .withLabel("etcd-operator.cozystack.io/defrag-schedule", "every-minute")
                .list()
                .getItems();
        assertThat(scheduled)
                .isNotEmpty()
                .allSatisfy(d -> assertThat(d.getMetadata().getName()).startsWith("every-minute-"));
        assertThat(scheduled.stream().map(E2eEnvironment::status).filter(st -> "Complete".equals(st.get("phase"))))
                .as("completed runs kept (history limit 1)")
                .hasSizeLessThanOrEqualTo(1);
        System.out.printf(
                "defrag schedule '* * * * *': first run complete %d s after the schedule was created (%s)%n",
                Duration.between(t1, Instant.now()).toSeconds(), lastSuccess);
    }

    @Test
    void aClusterPushedIntoNoSpaceRecoversOnItsOwn(E2eEnvironment env) {
        String ns = "nospace";
        env.awaitReady(ns, "full", 3, Duration.ofMinutes(4));
        String endpoints = env.endpoints(ns, "full");
        env.etcdctl(endpoints, "put", "/kept", "acknowledged before NOSPACE");
        int acknowledged = 0;
        Optional<String> refusal = Optional.empty();
        for (int i = 0; i < 400 && refusal.isEmpty(); i++) {
            try {
                env.etcdctl(endpoints, "put", "/churn/" + (i % 4), VALUE);
                acknowledged++;
            } catch (IllegalStateException e) {
                refusal = Optional.of(e.getMessage());
            }
        }
        Instant full = Instant.now();
        assertThat(refusal)
                .as("a write refused over the quota")
                .get()
                .asString()
                .contains("database space exceeded");

        Await.until("a write is accepted again", Duration.ofMinutes(3), () -> {
            try {
                env.etcdctl(endpoints, "put", "/after", "writable again");
                return true;
            } catch (IllegalStateException e) {
                return false;
            }
        });
        long seconds = Duration.between(full, Instant.now()).toSeconds();
        assertThat(env.etcdctl(endpoints, "alarm", "list").strip())
                .as("alarms after recovery")
                .isEmpty();
        assertThat(env.etcdctl(endpoints, "get", "/kept", "--print-value-only").strip())
                .isEqualTo("acknowledged before NOSPACE");
        for (int k = 0; k < 4; k++) {
            assertThat(env.etcdctl(endpoints, "get", "/churn/" + k, "--print-value-only")
                            .strip())
                    .isEqualTo(VALUE);
        }
        assertThat(events(env, ns, "AlarmDisarmed")).isNotEmpty();
        System.out.printf(
                "NOSPACE (8 MiB quota) after %d acknowledged writes of 100 KiB; writable again after %d s; "
                        + "events: %s%n",
                acknowledged,
                seconds,
                events(env, ns, "SpaceQuotaExceeded").size() + " SpaceQuotaExceeded, "
                        + events(env, ns, "KeyspaceCompacted").size() + " KeyspaceCompacted");
    }

    private static void churnAndCompact(E2eEnvironment env, String endpoints, int writes) {
        for (int i = 0; i < writes; i++) {
            env.etcdctl(endpoints, "put", "/churn/" + (i % 4), VALUE);
        }
        String header = env.etcdctl(endpoints, "get", "/kept", "-w", "json");
        long revision = Long.parseLong(header.replaceAll("(?s).*\"revision\":(\\d+).*", "$1"));
        env.etcdctl(endpoints, "compact", Long.toString(revision), "--physical");
    }

    private static String create(E2eEnvironment env, String ns, String name, Map<String, Object> rule, Integer ttl) {
        GenericKubernetesResource run = new GenericKubernetesResource();
        run.setApiVersion("etcd-operator.cozystack.io/v1alpha2");
        run.setKind("EtcdDefrag");
        run.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
        Map<String, Object> spec =
                new HashMap<>(Map.of("clusterRef", Map.of("name", ns.equals("defrag") ? "dfg" : "full"), "rule", rule));
        if (ttl != null) {
            spec.put("ttlSecondsAfterFinished", ttl);
        }
        run.setAdditionalProperty("spec", spec);
        env.client()
                .genericKubernetesResources(DEFRAGS)
                .inNamespace(ns)
                .resource(run)
                .create();
        return name;
    }

    private static Map<String, Object> awaitFinished(E2eEnvironment env, String ns, String name) {
        return Await.value(
                "defrag " + name + " Complete or Failed",
                RUN,
                () -> Optional.ofNullable(env.client()
                                .genericKubernetesResources(DEFRAGS)
                                .inNamespace(ns)
                                .withName(name)
                                .get())
                        .map(E2eEnvironment::status)
                        .filter(s -> "Complete".equals(s.get("phase")) || "Failed".equals(s.get("phase"))));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> members(Map<String, Object> status) {
        return (List<Map<String, Object>>) status.getOrDefault("members", List.of());
    }

    private static void assertEveryMemberDefragmented(Map<String, Object> status) {
        assertThat(status.get("phase")).isEqualTo("Complete");
        assertThat(status.get("defragmented")).isEqualTo(3);
        assertThat(members(status)).hasSize(3).allSatisfy(m -> {
            assertThat(m.get("outcome")).isEqualTo("Defragmented");
            assertThat(((Number) m.get("dbSizeAfter")).longValue())
                    .isLessThan(((Number) m.get("dbSizeBefore")).longValue());
            assertThat(((Number) m.get("reclaimedBytes")).longValue()).isPositive();
        });
    }

    private static String sizes(Map<String, Object> status) {
        return String.join(
                ", ",
                members(status).stream()
                        .map(m -> m.get("name") + " (" + m.get("role") + ") " + m.get("dbSizeBefore") + " -> "
                                + m.get("dbSizeAfter") + " bytes")
                        .toList());
    }

    private static List<Event> events(E2eEnvironment env, String ns, String reason) {
        return env.client().v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()))
                .toList();
    }
}
