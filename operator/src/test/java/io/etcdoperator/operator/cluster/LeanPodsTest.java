package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.informer.LeanItemStore;
import io.etcdoperator.operator.resources.AgentImage;
import io.etcdoperator.operator.resources.EtcdGuard;
import io.etcdoperator.operator.resources.Fixtures;
import io.etcdoperator.operator.resources.MemberPodStatus;
import io.etcdoperator.operator.resources.MemberPods;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cluster controller caches member Pods without most of their spec ({@link LeanItemStore#memberPods}). A cache
 * pass that judged a trimmed Pod differently from the whole one could call a cluster settled that is not: every
 * judgement a pass makes of a Pod, on every fixture member's Pod in several states, must not change.
 */
class LeanPodsTest {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    private static final Optional<AgentImage> AGENT =
            Optional.of(new AgentImage("ghcr.io/example/etcd-operator:1", AgentImage.DEFAULT_TOOLS_DIR));
    private static final List<String> MEMBERS = List.of(
            "member-joining-full",
            "member-memory",
            "member-seed-plain",
            "member-mtls",
            "member-seed-restore-pvc",
            "member-seed-restore-s3",
            "member-adopted-peer-auto-tls");

    record Case(String name, EtcdMember member, Pod pod) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        for (String fixture : MEMBERS) {
            EtcdMember member = Fixtures.member(fixture);
            for (boolean existing : new boolean[] {true, false}) {
                Pod built = MemberPods.build(member, "quay.io/coreos/etcd:v3.5.16", existing, AGENT);
                built.getMetadata().setUid("pod-uid");
                built.getMetadata().setCreationTimestamp("2026-11-27T10:00:00Z");
                built.getSpec().setNodeName("node-1");
                for (var status : statuses()) {
                    Pod pod = JSON.clone(built);
                    pod.setStatus(status.getValue());
                    out.add(new Case(fixture + (existing ? "/existing/" : "/new/") + status.getKey(), member, pod));
                }
                Pod flagged = JSON.clone(built);
                flagged.getMetadata()
                        .getAnnotations()
                        .put(EtcdOperatorApi.ANNOTATION_FORCE_NEW_CLUSTER, "2026-11-27T10:00:00Z");
                flagged.getMetadata().setDeletionTimestamp("2026-11-27T10:01:00Z");
                out.add(new Case(fixture + (existing ? "/existing" : "/new") + "/flagged-deleting", member, flagged));
            }
        }
        return out;
    }

    private static List<Map.Entry<String, PodStatus>> statuses() {
        return List.of(
                Map.entry(
                        "ready",
                        new PodStatusBuilder()
                                .withPhase("Running")
                                .withConditions(new PodConditionBuilder()
                                        .withType("Ready")
                                        .withStatus("True")
                                        .build())
                                .withContainerStatuses(new ContainerStatusBuilder()
                                        .withName(MemberPods.CONTAINER)
                                        .withReady(true)
                                        .withRestartCount(0)
                                        .withNewState()
                                        .withNewRunning()
                                        .endRunning()
                                        .endState()
                                        .build())
                                .build()),
                Map.entry(
                        "ready-again-after-oom",
                        new PodStatusBuilder()
                                .withPhase("Running")
                                .withConditions(new PodConditionBuilder()
                                        .withType("Ready")
                                        .withStatus("True")
                                        .withLastTransitionTime("2026-11-27T10:00:05Z")
                                        .build())
                                .withContainerStatuses(new ContainerStatusBuilder()
                                        .withName(MemberPods.CONTAINER)
                                        .withReady(true)
                                        .withRestartCount(1)
                                        .withNewState()
                                        .withNewRunning()
                                        .withStartedAt("2026-11-27T10:00:20Z")
                                        .endRunning()
                                        .endState()
                                        .withNewLastState()
                                        .withNewTerminated()
                                        .withExitCode(137)
                                        .withReason("OOMKilled")
                                        .endTerminated()
                                        .endLastState()
                                        .build())
                                .build()),
                Map.entry(
                        "crash-looping",
                        new PodStatusBuilder()
                                .withPhase("Running")
                                .withContainerStatuses(new ContainerStatusBuilder()
                                        .withName(MemberPods.CONTAINER)
                                        .withReady(false)
                                        .withRestartCount(4)
                                        .withNewState()
                                        .withNewWaiting()
                                        .withReason("CrashLoopBackOff")
                                        .endWaiting()
                                        .endState()
                                        .withNewLastState()
                                        .withNewTerminated()
                                        .withExitCode(137)
                                        .withReason("OOMKilled")
                                        .endTerminated()
                                        .endLastState()
                                        .build())
                                .build()),
                Map.entry(
                        "unschedulable",
                        new PodStatusBuilder()
                                .withPhase("Pending")
                                .withConditions(new PodConditionBuilder()
                                        .withType("PodScheduled")
                                        .withStatus("False")
                                        .withReason("Unschedulable")
                                        .withMessage("0/3 nodes")
                                        .withLastTransitionTime("2026-11-27T10:00:00Z")
                                        .build())
                                .build()),
                Map.entry(
                        "failed",
                        new PodStatusBuilder()
                                .withPhase("Failed")
                                .withReason("Evicted")
                                .build()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyJudgementOfATrimmedPodIsTheWholePodsOne(Case c) {
        var store = LeanItemStore.memberPods();
        store.put("k", JSON.clone(c.pod()));
        Pod trimmed = store.get("k");
        Pod whole = JSON.clone(c.pod());
        whole.getMetadata().setManagedFields(null); // every LeanItemStore drops them

        List<Function<Pod, Object>> judgements = List.of(
                MemberPodStatus::ready,
                MemberPodStatus::running,
                MemberPodStatus::failed,
                MemberPodStatus::broken,
                p -> MemberPodStatus.podLost(c.member(), p),
                EtcdGuard::restartsInPlace,
                p -> PodScheduling.unrunnable(p, Duration.ofMinutes(10)),
                PodScheduling::readyPod,
                p -> RecoveryRequest.carriedOut(c.member(), p),
                p -> OutdatedTest.seedStartsNew(c.member(), p, true),
                p -> OutdatedTest.seedStartsNew(c.member(), p, false),
                p -> p.getSpec().getNodeName(),
                p -> p.getMetadata(),
                p -> p.getStatus());
        for (int i = 0; i < judgements.size(); i++) {
            assertThat(judgements.get(i).apply(trimmed))
                    .as("judgement %d", i)
                    .isEqualTo(judgements.get(i).apply(whole));
        }
        assertThat(JSON.asJson(trimmed).length())
                .as("what the cache keeps of the Pod")
                .isLessThan(JSON.asJson(whole).length());
    }
}
