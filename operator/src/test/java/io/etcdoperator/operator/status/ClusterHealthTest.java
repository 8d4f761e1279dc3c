package io.etcdoperator.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.planner.EtcdView;
import io.etcdoperator.operator.planner.ObservedCluster;
import io.etcdoperator.operator.planner.ObservedMember;
import io.etcdoperator.operator.planner.Refusal;
import io.etcdoperator.operator.reason.Reason;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClusterHealthTest {

    private static final ClusterId ID = new ClusterId(0xc1L);

    /** Voters named a, b, c, ...; the first {@code ready} of them are Ready. */
    private static ObservedCluster voters(int n, int ready) {
        List<ObservedMember> members = new ArrayList<>();
        List<Member> etcd = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = "m" + (char) ('a' + i);
            URI peer = URI.create("http://" + name + ".demo.default.svc:2380");
            members.add(new ObservedMember(
                    name,
                    Instant.EPOCH.plusSeconds(i),
                    i == 0,
                    false,
                    false,
                    false,
                    i < ready,
                    true,
                    true,
                    Optional.of(new MemberId(i + 1)),
                    peer,
                    true));
            etcd.add(new Member(new MemberId(i + 1), name, List.of(peer), List.of(), false));
        }
        return new ObservedCluster(Optional.of(ID), members, new EtcdView.Reached(new Membership(ID, etcd)));
    }

    @Test
    void allReadyIsHealthyAndReconciled() {
        var r = ClusterHealth.assess(voters(3, 3), 3, true, Reason.RECONCILED, "", List.of(), null);
        assertThat(r.available().reason()).isEqualTo(Reason.QUORUM_HEALTHY);
        assertThat(r.degraded().status()).isFalse();
        assertThat(r.progressing().reason()).isEqualTo(Reason.RECONCILED);
        assertThat(r.ready()).isEqualTo(3);
    }

    /** The pass that parks the last member reports it stopped (Step.Pause) and the cluster paused, not a quorum lost. */
    @Test
    void thePassThatParksTheLastMemberReportsThePause() {
        ObservedCluster parking = voters(1, 1).restarting("ma");

        var r = ClusterHealth.assess(parking, 0, false, Reason.PAUSING, "pausing ma", List.of(), null);

        assertThat(r.ready()).isZero();
        assertThat(r.available().reason()).isEqualTo(Reason.PAUSED);
        assertThat(r.degraded().status()).isFalse();
        assertThat(r.progressing().reason()).isEqualTo(Reason.PAUSED);
    }

    /** kstatus: Ready only when the latched spec is reached and the cluster available; else whatever stands in the way. */
    @Test
    void readyIsTrueOnlyWhenReconciledAndAvailable() {
        var done = ClusterHealth.assess(voters(3, 3), 3, true, Reason.RECONCILED, "", List.of(), null);
        assertThat(done.readiness().status()).isTrue();
        var rolling =
                ClusterHealth.assess(voters(3, 3), 3, false, Reason.MEMBER_ROLLING, "restarting ma", List.of(), null);
        assertThat(rolling.available().status()).isTrue();
        assertThat(rolling.readiness().status()).isFalse();
        assertThat(rolling.readiness().reason()).isEqualTo(Reason.MEMBER_ROLLING);
        var oneDown = ClusterHealth.assess(voters(3, 2), 3, false, Reason.MEMBERS_NOT_READY, "", List.of(), null);
        assertThat(oneDown.readiness().reason()).isEqualTo(Reason.MEMBERS_UNHEALTHY);
        var noQuorum = ClusterHealth.assess(voters(3, 1), 3, false, Reason.MEMBERS_NOT_READY, "", List.of(), null);
        assertThat(noQuorum.readiness().status()).isFalse();
        assertThat(noQuorum.readiness().reason()).isEqualTo(Reason.QUORUM_LOST);
    }

    @Test
    void oneOfThreeDownKeepsQuorumButIsDegraded() {
        var r = ClusterHealth.assess(voters(3, 2), 3, false, Reason.MEMBERS_NOT_READY, "", List.of(), null);
        assertThat(r.available().status()).isTrue();
        assertThat(r.available().reason()).isEqualTo(Reason.QUORUM_AVAILABLE);
        assertThat(r.degraded().reason()).isEqualTo(Reason.MEMBERS_UNHEALTHY);
    }

    @Test
    void readyCountsVotersOnlyAndBrokenCountsJoinedMembersThatAreDown() {
        ObservedCluster three = voters(3, 2);
        var r = ClusterHealth.assess(three, 3, false, Reason.MEMBERS_NOT_READY, "", List.of(), null);
        assertThat(r.ready()).isEqualTo(2);
        assertThat(r.broken()).isEqualTo(1);
        List<ObservedMember> members = new ArrayList<>(three.members());
        URI peer = URI.create("http://md.demo.default.svc:2380");
        members.add(new ObservedMember(
                "md",
                Instant.EPOCH.plusSeconds(9),
                false,
                false,
                false,
                false,
                true,
                true,
                false,
                Optional.of(new MemberId(9)),
                peer,
                true));
        var membership = ((EtcdView.Reached) three.etcd()).membership();
        List<Member> entries = new ArrayList<>(membership.members());
        entries.add(new Member(new MemberId(9), "md", List.of(peer), List.of(), true));
        ObservedCluster withLearner =
                new ObservedCluster(three.clusterId(), members, new EtcdView.Reached(new Membership(ID, entries)));
        var l = ClusterHealth.assess(withLearner, 4, false, Reason.LEARNER_CATCHING_UP, "", List.of(), null);
        assertThat(l.ready()).as("a ready learner is not counted").isEqualTo(2);
        assertThat(l.learners()).isEqualTo(1);
    }

    @Test
    void twoOfThreeDownIsQuorumLost() {
        var r = ClusterHealth.assess(voters(3, 1), 3, false, Reason.MEMBERS_NOT_READY, "", List.of(), null);
        assertThat(r.available().status()).isFalse();
        assertThat(r.available().reason()).isEqualTo(Reason.QUORUM_LOST);
        assertThat(r.degraded().reason()).isEqualTo(Reason.QUORUM_LOST);
    }

    /**
     * A member restarted without a quorum answers no client, so etcd cannot be reached at all; with most voter Pods
     * unready too the status says quorum lost and how to recover, not only that etcd is out of reach.
     */
    @Test
    void unreachableWithMostVoterPodsUnreadyIsQuorumLost() {
        EtcdView unreachable = new EtcdView.Unreachable(Reason.CLUSTER_UNREACHABLE, "deadline exceeded");
        var lost = ClusterHealth.assess(
                new ObservedCluster(Optional.of(ID), voters(3, 1).members(), unreachable),
                3,
                false,
                Reason.CLUSTER_UNREACHABLE,
                "",
                List.of(),
                null);
        assertThat(lost.available().reason()).isEqualTo(Reason.QUORUM_LOST);
        assertThat(lost.available().message())
                .startsWith("1/3 voter Pods are ready and the operator cannot reach etcd "
                        + "(deadline exceeded), quorum lost;")
                .contains("force-new-cluster-from");
        var operatorSide = ClusterHealth.assess(
                new ObservedCluster(Optional.of(ID), voters(3, 2).members(), unreachable),
                3,
                false,
                Reason.CLUSTER_UNREACHABLE,
                "",
                List.of(),
                null);
        assertThat(operatorSide.available().reason())
                .as("the Pods say etcd is fine")
                .isEqualTo(Reason.CLUSTER_UNREACHABLE);
        var single = ClusterHealth.assess(
                new ObservedCluster(Optional.of(ID), voters(1, 0).members(), unreachable),
                1,
                false,
                Reason.CLUSTER_UNREACHABLE,
                "",
                List.of(),
                null);
        assertThat(single.available().reason()).as("one member restarting").isEqualTo(Reason.CLUSTER_UNREACHABLE);
    }

    @Test
    void aRefusalIsReportedUnderItsOwnReason() {
        var refusal = new Refusal(Reason.UNSUPPORTED_UPGRADE, "cannot change etcd 3.5.16 to 3.4.23: a minor downgrade");
        var r = ClusterHealth.assess(voters(3, 3), 3, true, Reason.RECONCILED, "", List.of(refusal), null);
        assertThat(r.degraded().status()).isTrue();
        assertThat(r.degraded().reason()).isEqualTo(Reason.UNSUPPORTED_UPGRADE);
        assertThat(r.degraded().message()).contains("minor downgrade");
        assertThat(r.available().status()).isTrue();
    }

    @Test
    void aStalledUpgradeIsDegradedButStaysAvailableWhileQuorumHolds() {
        var r = ClusterHealth.assess(
                voters(3, 2), 3, false, Reason.UPGRADE_STALLED, "", List.of(), Reason.UPGRADE_STALLED);
        assertThat(r.available().status()).isTrue();
        assertThat(r.degraded().reason()).isEqualTo(Reason.UPGRADE_STALLED);
        assertThat(r.progressing().status()).isFalse();
        assertThat(r.progressing().message()).contains("set spec.version back");
    }

    @Test
    void aMissedDeadlineOtherwiseMakesTheClusterUnavailable() {
        var r = ClusterHealth.assess(
                voters(3, 2), 3, false, Reason.DEADLINE_EXCEEDED, "", List.of(), Reason.DEADLINE_EXCEEDED);
        assertThat(r.available().status()).isFalse();
        assertThat(r.available().reason()).isEqualTo(Reason.DEADLINE_EXCEEDED);
    }

    @Test
    void aRefusedVolumeExpansionIsDegraded() {
        var r = ClusterHealth.assess(
                voters(3, 3), 3, true, Reason.VOLUME_EXPANSION_UNSUPPORTED, "no expansion", List.of(), null);
        assertThat(r.degraded().reason()).isEqualTo(Reason.VOLUME_EXPANSION_UNSUPPORTED);
    }
}
