package io.etcdoperator.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

/** What the etcd container's last termination says: lost data (raft panic), a crash loop, or nothing. */
class MemberPodStatusTest {

    private static final String RAFT_PANIC = """
      {"level":"info","msg":"became follower at term 3"}
      {"level":"panic","msg":"tocommit(9) is out of range [lastIndex(0)]. Was the raft log corrupted, truncated, or lost?"}
      panic: tocommit(9) is out of range [lastIndex(0)]. Was the raft log corrupted, truncated, or lost?
      goroutine 1 [running]:
      """;

    @Test
    void aRaftPanicOnAMissingLogIsLostDataAfterOneExit() {
        var broken = MemberPodStatus.broken(pod(1, RAFT_PANIC, "Error")).orElseThrow();
        assertThat(broken.dataLost()).isTrue();
        assertThat(broken.lastExit()).startsWith("exit code 2").contains("tocommit(9) is out of range");
    }

    @Test
    void aStartWithoutAWalThatAsksItsPeersForTheClusterIsLostData() {
        String log =
                "{\"level\":\"fatal\",\"msg\":\"discovery failed\",\"error\":\"cannot fetch cluster info from peer "
                        + "urls: could not retrieve cluster information from the given URLs\"}";
        var broken = MemberPodStatus.broken(pod(1, log, "Error")).orElseThrow();
        assertThat(broken.dataLost()).isTrue();
        assertThat(broken.lastExit()).contains("cannot fetch cluster info");
        String validation =
                "{\"msg\":\"discovery failed\",\"error\":\"error validating peerURLs {ClusterID:4bbf65d5218598e0}:"
                        + " member count is unequal\"}";
        assertThat(MemberPodStatus.broken(pod(1, validation, "Error"))
                        .orElseThrow()
                        .dataLost())
                .isTrue();
    }

    @Test
    void theGuardsRefusalIsLostDataAfterOneExit() {
        String message =
                "etcd-guard: member m ran in this Pod with a WAL, but its data directory /var/lib/etcd holds none"
                        + " now: its data is lost, and etcd must not start it again under its old member ID\n";
        var broken = MemberPodStatus.broken(pod(1, message, "Error")).orElseThrow();
        assertThat(broken.dataLost()).isTrue();
        assertThat(broken.proven()).isTrue();
        assertThat(broken.lastExit()).contains("etcd-guard: member m ran in this Pod");
        String foreign =
                "etcd-guard: data directory /var/lib/etcd belongs to another member or cluster (name=x token=y )";
        assertThat(MemberPodStatus.broken(pod(1, foreign, "Error")))
                .as("not this member's data: not deleted as lost")
                .isEmpty();
    }

    /** The guard's word that etcd exited 0 unasked: what etcd does once it applied its own removal. */
    @Test
    void etcdStoppingByItselfIsReportedAsRemovedNeverAsLostData() {
        String message =
                "etcd-guard: etcd exited with code 0 without being asked to stop, as it does once it applied its "
                        + "own removal from the cluster\n";
        var broken = MemberPodStatus.broken(pod(1, message, "CrashLoopBackOff")).orElseThrow();
        assertThat(broken.removed()).isTrue();
        assertThat(broken.dataLost()).isFalse();
        assertThat(broken.proven()).as("no loss of data to prove").isFalse();
    }

    /** A learner whose first starts could not reach its peers, then joined: its lastState is history. */
    @Test
    void aContainerThatServesNowIsNotBrokenWhateverItsLastRunSaid() {
        String log =
                "{\"level\":\"fatal\",\"msg\":\"discovery failed\",\"error\":\"cannot fetch cluster info from peer "
                        + "urls\"}";
        assertThat(MemberPodStatus.broken(pod(3, log, null)))
                .as("running again: its last failure is history")
                .isEmpty();
        var waiting = MemberPodStatus.broken(pod(3, log, "CrashLoopBackOff")).orElseThrow();
        assertThat(waiting.dataLost()).isTrue();
        assertThat(waiting.proven())
                .as("a first start says the same while its peers are unreachable")
                .isFalse();
    }

    @Test
    void twoRestartsInCrashLoopBackOffAreACrashLoop() {
        var broken = MemberPodStatus.broken(pod(2, "error: bad flag", "CrashLoopBackOff"))
                .orElseThrow();
        assertThat(broken.dataLost()).isFalse();
        assertThat(broken.lastExit()).endsWith("error: bad flag");
        assertThat(MemberPodStatus.broken(pod(1, "error: bad flag", "CrashLoopBackOff")))
                .isEmpty();
        assertThat(MemberPodStatus.broken(pod(7, "error: bad flag", null)))
                .as("running again")
                .isEmpty();
    }

    private static Pod pod(int restarts, String message, String waiting) {
        var status = new ContainerStatusBuilder()
                .withName("etcd")
                .withRestartCount(restarts)
                .withNewLastState()
                .withNewTerminated()
                .withExitCode(2)
                .withMessage(message)
                .endTerminated()
                .endLastState();
        if (waiting != null) {
            status.withNewState()
                    .withNewWaiting()
                    .withReason(waiting)
                    .endWaiting()
                    .endState();
        } else {
            status.withNewState().withNewRunning().endRunning().endState();
        }
        return new PodBuilder()
                .withNewMetadata()
                .withName("m")
                .endMetadata()
                .withNewStatus()
                .withContainerStatuses(status.build())
                .endStatus()
                .build();
    }
}
