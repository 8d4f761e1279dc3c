package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberStatus;
import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.operator.planner.ClusterPlanner;
import io.etcdoperator.operator.resources.Fixtures;
import io.etcdoperator.operator.resources.MemberPods;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A member in its first seconds counts as ready once etcd answers for it with a leader, before the kubelet's next
 * readiness probe; nothing else does.
 */
class ServesBeforeProbeTest {

    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private static EtcdMember memberCreated(Instant created) {
        EtcdMember m = Fixtures.member("member-seed-plain");
        m.getMetadata().setCreationTimestamp(created.toString());
        m.setStatus(new EtcdMemberStatus());
        m.getStatus().setMemberID("0000000000000007");
        return m;
    }

    /** A Pod whose etcd container runs and which the kubelet has not (yet) called Ready. */
    private static Pod runningPod(EtcdMember m) {
        Pod pod = MemberPods.build(m, "quay.io/coreos/etcd:v3.5.16", false);
        pod.setStatus(new PodStatusBuilder()
                .withPhase("Running")
                .addNewCondition()
                .withType("Ready")
                .withStatus("False")
                .endCondition()
                .withContainerStatuses(new ContainerStatusBuilder()
                        .withName(MemberPods.CONTAINER)
                        .withNewState()
                        .withNewRunning()
                        .withStartedAt(NOW.toString())
                        .endRunning()
                        .endState()
                        .build())
                .build());
        return pod;
    }

    private static Optional<EndpointStatus> status(long leader, List<String> errors) {
        return Optional.of(
                new EndpointStatus("3.5.16", new MemberId(7), new MemberId(leader), 10, 10, 2, 0, 0, 1, false, errors));
    }

    @Test
    void aNewMemberWhoseEtcdAnswersWithALeaderServesBeforeItsProbe() {
        EtcdMember m = memberCreated(NOW.minusSeconds(3));
        assertThat(MemberObservations.servesBeforeProbe(m, runningPod(m), status(7, List.of()), NOW))
                .isTrue();
    }

    @Test
    void withoutALeaderOrWithAnErrorOrWithoutAnAnswerItDoesNot() {
        EtcdMember m = memberCreated(NOW.minusSeconds(3));
        assertThat(MemberObservations.servesBeforeProbe(m, runningPod(m), status(0, List.of()), NOW))
                .isFalse();
        assertThat(MemberObservations.servesBeforeProbe(m, runningPod(m), status(7, List.of("CORRUPT")), NOW))
                .isFalse();
        assertThat(MemberObservations.servesBeforeProbe(m, runningPod(m), Optional.empty(), NOW))
                .isFalse();
    }

    @Test
    void aMemberWhoseIdIsNotRecordedYetDoesNot() {
        EtcdMember m = memberCreated(NOW.minusSeconds(3));
        m.getStatus().setMemberID(null);
        assertThat(MemberObservations.servesBeforeProbe(m, runningPod(m), status(7, List.of()), NOW))
                .isFalse();
    }

    @Test
    void aMemberPastItsFirstSecondsWaitsForItsPodsReadyAsBefore() {
        EtcdMember m =
                memberCreated(NOW.minus(ClusterPlanner.LEARNER_START_WINDOW).minusSeconds(1));
        assertThat(MemberObservations.servesBeforeProbe(m, runningPod(m), status(7, List.of()), NOW))
                .isFalse();
    }

    @Test
    void aTerminatingPodOrOneWhoseContainerDoesNotRunDoesNot() {
        EtcdMember m = memberCreated(NOW.minusSeconds(3));
        Pod deleting = runningPod(m);
        deleting.getMetadata().setDeletionTimestamp(NOW.toString());
        assertThat(MemberObservations.servesBeforeProbe(m, deleting, status(7, List.of()), NOW))
                .isFalse();
        Pod waiting = runningPod(m);
        waiting.getStatus()
                .getContainerStatuses()
                .getFirst()
                .setState(new ContainerStateBuilder()
                        .withNewWaiting()
                        .withReason("ContainerCreating")
                        .endWaiting()
                        .build());
        assertThat(MemberObservations.servesBeforeProbe(m, waiting, status(7, List.of()), NOW))
                .isFalse();
        assertThat(MemberObservations.servesBeforeProbe(m, null, status(7, List.of()), NOW))
                .isFalse();
    }
}
