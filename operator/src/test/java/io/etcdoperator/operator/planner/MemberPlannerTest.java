package io.etcdoperator.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.planner.MemberView.MemberPod;
import io.etcdoperator.operator.planner.MemberView.Volume;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The member controller's decisions, one row each: what it does with a member in each state it can find. */
class MemberPlannerTest {

    private static final Map<String, String> OURS = Map.of("cluster", "demo", "member", "demo-1");

    /** A PVC member of a formed cluster, its Pod running and labelled, etcd counting it as a voter. */
    private static final class Member {
        boolean pending;
        boolean dormant;
        boolean memory;
        Optional<MemberPod> pod = Optional.of(pod(true, Optional.empty(), voterLabels()));
        boolean podLost;
        Volume volume = Volume.OURS;
        Optional<String> missingSecret = Optional.empty();
        boolean existing = true;
        boolean restoreAsked;
        boolean agent = true;
        boolean voter = true;

        MemberView view() {
            return new MemberView(
                    pending,
                    dormant,
                    memory,
                    pod,
                    podLost,
                    volume,
                    "data-demo-1",
                    missingSecret,
                    existing,
                    restoreAsked,
                    agent,
                    OURS,
                    voter);
        }

        Member noPod() {
            pod = Optional.empty();
            return this;
        }
    }

    private static Map<String, String> voterLabels() {
        Map<String, String> labels = new HashMap<>(OURS);
        labels.put(EtcdOperatorApi.LABEL_ROLE, EtcdOperatorApi.ROLE_VOTER);
        return labels;
    }

    private static MemberPod pod(boolean controlled, Optional<String> failed, Map<String, String> labels) {
        return new MemberPod("demo-1", false, controlled, failed, labels);
    }

    private static MemberStep next(Member m) {
        return MemberPlanner.next(m.view());
    }

    @Test
    void aSettledMemberIsOnlyReported() {
        assertThat(next(new Member())).isEqualTo(new MemberStep.Report());
    }

    @Test
    void aPendingMemberWaitsForItsInitialClusterWhateverElseIsTrue() {
        Member m = new Member().noPod();
        m.pending = true;
        m.volume = Volume.MISSING;
        m.missingSecret = Optional.of("waiting for Secret demo-peer");
        assertThat(next(m)).isEqualTo(new MemberStep.AwaitInitialCluster());
    }

    @Test
    void aDormantMemberIsParkedAndOnlyARunningPodIsDeleted() {
        Member m = new Member();
        m.dormant = true;
        assertThat(next(m)).isEqualTo(new MemberStep.Park(true));
        m.pod = Optional.of(new MemberPod("demo-1", true, true, Optional.empty(), voterLabels()));
        assertThat(next(m)).isEqualTo(new MemberStep.Park(false));
        assertThat(next(m.noPod())).isEqualTo(new MemberStep.Park(false));
    }

    @Test
    void aMemoryMemberThatLostItsPodNeverGetsANewOne() {
        Member m = new Member().noPod();
        m.memory = true;
        m.volume = Volume.NOT_USED;
        m.podLost = true;
        assertThat(next(m)).isEqualTo(new MemberStep.ReportLost());
        m.podLost = false;
        assertThat(next(m)).as("before its first Pod").isEqualTo(new MemberStep.CreatePod(false, true, false));
    }

    @Test
    void aFailedPodOfAPvcMemberIsRecreatedAndAMemoryMembersIsNot() {
        Member m = new Member();
        m.pod = Optional.of(pod(true, Optional.of("Evicted"), voterLabels()));
        assertThat(next(m)).isEqualTo(new MemberStep.RecreateFailedPod("Evicted"));
        m.memory = true;
        m.volume = Volume.NOT_USED;
        assertThat(next(m)).as("its data is only in that Pod").isNotInstanceOf(MemberStep.RecreateFailedPod.class);
    }

    @Test
    void aForeignClaimOrPodBlocksAndNothingIsCreatedOverThem() {
        Member m = new Member();
        m.volume = Volume.FOREIGN;
        assertThat(next(m))
                .isEqualTo(new MemberStep.Blocked(
                        "PVC data-demo-1 is owned by another object; waiting for it to be garbage-collected", true));
        Member n = new Member();
        n.pod = Optional.of(pod(false, Optional.empty(), voterLabels()));
        assertThat(next(n)).isEqualTo(new MemberStep.Blocked("Pod demo-1 belongs to another owner", false));
    }

    @Test
    void aMissingPodIsCreatedWithItsClaimWhenNothingBlocks() {
        Member m = new Member().noPod();
        m.volume = Volume.MISSING;
        assertThat(next(m)).isEqualTo(new MemberStep.CreatePod(true, true, false));
        m.volume = Volume.OURS;
        assertThat(next(m)).isEqualTo(new MemberStep.CreatePod(false, true, false));
    }

    @Test
    void aMissingSecretHoldsThePodButNotItsClaim() {
        Member m = new Member().noPod();
        m.missingSecret = Optional.of("waiting for Secret demo-peer");
        m.volume = Volume.MISSING;
        assertThat(next(m)).isEqualTo(new MemberStep.CreateVolume());
        m.volume = Volume.OURS;
        assertThat(next(m)).isEqualTo(new MemberStep.Blocked("waiting for Secret demo-peer", false));
    }

    @Test
    void aRestoringSeedStartsOnlyWithAnAgentAndOnlyIntoANewCluster() {
        Member m = new Member().noPod();
        m.restoreAsked = true;
        m.existing = false;
        assertThat(next(m)).isEqualTo(new MemberStep.CreatePod(false, false, true));
        m.agent = false;
        assertThat(next(m)).isEqualTo(new MemberStep.RefuseRestore());
        m.existing = true;
        assertThat(next(m))
                .as("a formed cluster's seed never restores again")
                .isEqualTo(new MemberStep.CreatePod(false, true, false));
    }

    @Test
    void theRoleLabelFollowsEtcdAndEditedAwayLabelsComeBack() {
        Member learner = new Member();
        learner.voter = false;
        Map<String, String> drop = new LinkedHashMap<>();
        drop.put(EtcdOperatorApi.LABEL_ROLE, null);
        assertThat(next(learner)).isEqualTo(new MemberStep.PatchLabels(drop, Set.of()));

        Member edited = new Member();
        Map<String, String> labels = voterLabels();
        labels.remove("cluster");
        edited.pod = Optional.of(pod(true, Optional.empty(), labels));
        Map<String, String> back = new LinkedHashMap<>();
        back.put("cluster", "demo");
        back.put(EtcdOperatorApi.LABEL_ROLE, EtcdOperatorApi.ROLE_VOTER);
        assertThat(next(edited)).isEqualTo(new MemberStep.PatchLabels(back, Set.of("cluster")));
    }

    @Test
    void aRunningPodWhoseClaimVanishedGetsANewClaim() {
        Member m = new Member();
        m.volume = Volume.MISSING;
        assertThat(next(m)).isEqualTo(new MemberStep.CreateVolume());
    }
}
