package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.planner.ObservedMember.ReadyPod;
import io.etcdoperator.operator.resources.MemberPods;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a roll's wait reads of a member's Pod: since when it has been Ready, and whether etcd was OOM-killed in it. */
class ReadyPodTest {

    private static Pod pod(String readySince, String startedAt, String lastExit) {
        var etcd = new ContainerStatusBuilder()
                .withName(MemberPods.CONTAINER)
                .withReady(true)
                .withNewState()
                .withNewRunning()
                .withStartedAt(startedAt)
                .endRunning()
                .endState();
        if (lastExit != null) {
            etcd.withNewLastState()
                    .withNewTerminated()
                    .withExitCode(137)
                    .withReason(lastExit)
                    .endTerminated()
                    .endLastState();
        }
        return new PodBuilder()
                .withNewMetadata()
                .withName("m")
                .endMetadata()
                .withNewStatus()
                .withPhase("Running")
                .withConditions(new PodConditionBuilder()
                        .withType("Ready")
                        .withStatus("True")
                        .withLastTransitionTime(readySince)
                        .build())
                .withContainerStatuses(etcd.build())
                .endStatus()
                .build();
    }

    @Test
    void readySinceItsReadyTransition() {
        assertThat(PodScheduling.readyPod(pod("2026-11-27T10:00:05Z", "2026-11-27T10:00:01Z", null)))
                .contains(new ReadyPod(Instant.parse("2026-11-27T10:00:05Z"), false));
    }

    @Test
    void aRestartBetweenTwoStatusReportsCountsFromTheContainersStart() {
        assertThat(PodScheduling.readyPod(pod("2026-11-27T10:00:05Z", "2026-11-27T10:03:00Z", "OOMKilled")))
                .contains(new ReadyPod(Instant.parse("2026-11-27T10:03:00Z"), true));
    }

    @Test
    void aFailedFirstStartIsNoOomKill() {
        assertThat(PodScheduling.readyPod(pod("2026-11-27T10:00:05Z", "2026-11-27T10:00:01Z", "Error"))
                        .map(ReadyPod::oomKilled))
                .contains(false);
    }

    @Test
    void aPodThatIsNotReadyHasNone() {
        Pod unready = pod("2026-11-27T10:00:05Z", "2026-11-27T10:00:01Z", null);
        unready.getStatus().getConditions().getFirst().setStatus("False");
        assertThat(PodScheduling.readyPod(unready)).isEqualTo(Optional.empty());
        assertThat(PodScheduling.readyPod(null)).isEmpty();
    }
}
