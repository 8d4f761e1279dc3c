package io.etcdoperator.operator.planner;

import static io.etcdoperator.operator.planner.Observations.CLUSTER;
import static io.etcdoperator.operator.planner.Observations.cluster;
import static io.etcdoperator.operator.planner.Observations.id;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.Alarm;
import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.planner.Step.Wait;
import io.etcdoperator.operator.reason.Reason;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The adoption of a running etcd (spec.bootstrap.existing), decided by the one planner: a table of its states. */
class AdoptionTest {

    private final ClusterPlanner planner = new ClusterPlanner();

    /** The running cluster's members, as etcd lists them, and what each answered (a version, or nothing). */
    private final List<Member> external = new ArrayList<>();

    private final Map<MemberId, EndpointStatus> answered = new HashMap<>();
    private String leader = "ext-0";
    private boolean latched = true;
    private boolean allowed;

    private AdoptionTest ext(String name, String version) {
        Member m = new Member(id(name), name, List.of(Observations.peer(name)), List.of(client(name)), false);
        external.add(m);
        if (version != null) {
            answered.put(m.id(), status(m.id(), version));
        }
        return this;
    }

    private static URI client(String name) {
        return URI.create("http://" + name + ".ext.default.svc:2379");
    }

    private EndpointStatus status(MemberId member, String version) {
        return new EndpointStatus(version, member, id(leader), 10, 10, 2, 0, 0, 1, false, List.of());
    }

    private AdoptionTest healthyExternals(int n) {
        for (int i = 0; i < n; i++) {
            ext("ext-" + i, "3.5.9");
        }
        return this;
    }

    private Step next(Observations ours, int desired) {
        ObservedCluster built = (latched ? ours : ours.notFormed()).build();
        List<Member> all = new ArrayList<>(external);
        if (built.etcd() instanceof EtcdView.Reached r) {
            all.addAll(r.membership().members());
        }
        Set<MemberId> recorded = new HashSet<>();
        if (latched) {
            external.forEach(m -> recorded.add(m.id()));
        }
        answered.replaceAll((member, s) -> status(member, s.version())); // the leader as set last
        ExternalMembers adoption = new ExternalMembers(true, recorded, answered, allowed, Optional.of("3.5.16"));
        EtcdView view = built.etcd() instanceof EtcdView.Reached
                ? new EtcdView.Reached(new Membership(CLUSTER, all))
                : built.etcd();
        return planner.next(with(built, view, adoption), desired);
    }

    private static String refusal(Step step, Reason reason) {
        assertThat(step).isInstanceOf(Wait.class);
        assertThat(((Wait) step).reason()).isEqualTo(reason);
        return ((Wait) step).detail();
    }

    @Test
    void aHealthyClusterOnTheTargetsMinorIsAdoptedWithItsIdAndMembers() {
        latched = false;
        Step step = healthyExternals(3).next(cluster(), 3);
        assertThat(step)
                .isEqualTo(new AdoptionSteps.Adopt(
                        CLUSTER, List.of(id("ext-0"), id("ext-1"), id("ext-2")), "ext-0, ext-1, ext-2"));
    }

    @Test
    void anUnreachableClusterIsNeverBootstrappedAnew() {
        latched = false;
        Step step = healthyExternals(3)
                .next(cluster().etcdView(new EtcdView.Unreachable(Reason.CLUSTER_UNREACHABLE, "refused")), 3);
        assertThat(refusal(step, Reason.CLUSTER_UNREACHABLE)).contains("the running etcd to adopt does not answer");
    }

    @Test
    void aMemberThatDoesNotAnswerRefusesTheAdoption() {
        latched = false;
        Step step = healthyExternals(2).ext("ext-2", null).next(cluster(), 3);
        assertThat(refusal(step, Reason.ADOPTION_REFUSED)).contains("ext-2").contains("healthy");
    }

    @Test
    void anotherMinorVersionRefusesTheAdoption() {
        latched = false;
        Step step = healthyExternals(2).ext("ext-2", "3.4.23").next(cluster(), 3);
        assertThat(refusal(step, Reason.ADOPTION_REFUSED)).contains("3.4.23").contains("3.5.16");
    }

    @Test
    void aLearnerInFlightRefusesTheAdoption() {
        latched = false;
        healthyExternals(2);
        external.add(new Member(id("late"), "late", List.of(Observations.peer("late")), List.of(), true));
        assertThat(refusal(next(cluster(), 3), Reason.ADOPTION_REFUSED)).contains("learner");
    }

    @Test
    void tooManyVotersAtOnceRefusesTheAdoption() {
        latched = false;
        Step step = healthyExternals(5).next(cluster(), 5);
        assertThat(refusal(step, Reason.ADOPTION_REFUSED)).contains("10 voters");
    }

    @Test
    void withNoMemberOfItsOwnYetTheFirstJoinsWithTheExternalPeers() {
        Step step = healthyExternals(3).next(cluster(), 3);
        assertThat(step).isInstanceOf(Step.CreateMember.class);
        assertThat(((Step.CreateMember) step).addAtOnce().orElseThrow().with("demo-x", Observations.peer("demo-x")))
                .isEqualTo("demo-x=" + Observations.peer("demo-x") + ",ext-0=" + Observations.peer("ext-0") + ",ext-1="
                        + Observations.peer("ext-1") + ",ext-2=" + Observations.peer("ext-2"));
    }

    @Test
    void externalMembersAreNotOrphans() {
        Step step = healthyExternals(3).next(cluster().voter("a"), 3);
        assertThat(step).isInstanceOf(Step.CreateMember.class);
    }

    @Test
    void aJoinedLearnerIsPromotedWithTheExternalVotersCounted() {
        Step step = healthyExternals(3).next(cluster().voter("a").learner("b", true), 3);
        assertThat(step).isInstanceOf(Step.PromoteLearner.class);
    }

    @Test
    void onceTheOperatorsMembersAreInLeadershipMovesToOneOfThem() {
        leader = "ext-1";
        Step step = healthyExternals(3).next(cluster().voter("b").voter("a").leader("ext-1"), 2);
        assertThat(step).isEqualTo(new AdoptionSteps.HandOverLeadership(client("ext-1"), "ext-1", "a", id("a")));
    }

    @Test
    void theExternalMembersStayUntilAPersonAllowsTheirRemoval() {
        leader = "a";
        Step step = healthyExternals(3).next(cluster().voter("a").voter("b").leader("a"), 2);
        assertThat(refusal(step, Reason.ADOPTION_AWAITING_REMOVAL))
                .contains("3 external member(s)")
                .contains("remove-external-members=true");
    }

    @Test
    void allowedTheyGoOneAtATimeASilentOneFirst() {
        leader = "a";
        allowed = true;
        Step step =
                healthyExternals(2).ext("ext-9", null).next(cluster().voter("a").leader("a"), 1);
        assertThat(step).isEqualTo(new AdoptionSteps.RemoveExternal(id("ext-9"), "ext-9", 2));
    }

    @Test
    void aRemovalWhileTooFewVotersAnswerWaits() {
        leader = "a";
        allowed = true;
        Step step = ext("ext-0", "3.5.9")
                .ext("ext-1", null)
                .ext("ext-2", null)
                .ext("ext-3", null)
                .next(cluster().voter("a").leader("a"), 1);
        assertThat(refusal(step, Reason.QUORUM_AT_RISK)).contains("ext-1");
    }

    @Test
    void etcdListingNoExternalMemberFinishesTheAdoption() {
        // recorded in status, gone from etcd: the list is recorded from the externals declared, then dropped
        ext("ext-0", "3.5.9");
        Member gone = external.removeFirst();
        answered.clear();
        Step step = nextWithRecorded(cluster().voter("a").leader("a"), Set.of(gone.id()));
        assertThat(step).isEqualTo(new AdoptionSteps.Finish());
    }

    @Test
    void aPersonsForcedNewClusterIsRefusedWhileTheExternalMembersVote() {
        Observations ours = cluster()
                .voter("a")
                .unreadyVoter("b")
                .maintenance(new Maintenance(
                        List.of(),
                        Maintenance.DEFAULT_QUOTA,
                        Optional.empty(),
                        Optional.of(new Maintenance.QuorumRecovery("a", Optional.empty()))));
        Step step = healthyExternals(3).next(ours, 2);
        assertThat(refusal(step, Reason.QUORUM_RECOVERY_REFUSED)).contains("same id");
    }

    @Test
    void abandoningAnAdoptionScalesTheOperatorsMembersDownOneAtATime() {
        leader = "a";
        Step step = healthyExternals(3)
                .next(cluster().voter("a").voter("b").voter("c").leader("a"), 1);
        assertThat(step).isEqualTo(new Step.RemoveMember("c"));
    }

    @Test
    void replicasZeroIsRefusedWhileTheExternalMembersVote() {
        leader = "a";
        Step step = healthyExternals(1).next(cluster().voter("a").leader("a"), 0);
        assertThat(refusal(step, Reason.ADOPTION_REFUSED)).contains("spec.replicas is 0");
    }

    @Test
    void aVoterAddedToTheRunningClusterAfterTheLatchIsKept() {
        healthyExternals(2);
        Step step = nextWith(
                cluster().voter("a"),
                3,
                new Member(id("late"), "late", List.of(Observations.peer("late")), List.of(client("late")), false));
        assertThat(step).isInstanceOf(Step.CreateMember.class);
    }

    @Test
    void aMemberWithTwoPeerUrlsRefusesTheAdoption() {
        latched = false;
        healthyExternals(2);
        external.add(new Member(
                id("two"),
                "two",
                List.of(Observations.peer("two"), URI.create("http://10.0.0.9:2380")),
                List.of(client("two")),
                false));
        answered.put(id("two"), status(id("two"), "3.5.9"));
        assertThat(refusal(next(cluster(), 3), Reason.ADOPTION_REFUSED)).contains("more than one peer URL");
    }

    @Test
    void raisedAlarmsRefuseTheAdoption() {
        latched = false;
        Observations ours = cluster()
                .maintenance(new Maintenance(
                        List.of(new Alarm(id("ext-0"), Alarm.Kind.NOSPACE)),
                        Maintenance.DEFAULT_QUOTA,
                        Optional.empty()));
        assertThat(refusal(healthyExternals(3).next(ours, 3), Reason.ADOPTION_REFUSED))
                .contains("alarms");
    }

    @Test
    void theLeaderIsTheOneTheNewestTermNames() {
        var old = new EndpointStatus("3.5.9", id("ext-0"), id("ext-0"), 10, 10, 2, 0, 0, 1, false, List.of());
        var now = new EndpointStatus("3.5.9", id("ext-1"), id("ext-2"), 10, 10, 3, 0, 0, 1, false, List.of());
        var adoption = new ExternalMembers(
                true, Set.of(), Map.of(id("ext-0"), old, id("ext-1"), now), false, Optional.empty());
        assertThat(adoption.leader(List.of())).contains(id("ext-2"));
        var unsure = new EndpointStatus("3.5.9", id("a"), new MemberId(0), 10, 10, 4, 0, 0, 1, false, List.of());
        assertThat(adoption.leader(List.of(unsure)))
                .as("a member that knows of no leader in a newer term names none")
                .contains(id("ext-2"));
    }

    /** As {@link #next}, with one more member in etcd that was not there when the cluster was adopted. */
    private Step nextWith(Observations ours, int desired, Member late) {
        Set<MemberId> recorded = new HashSet<>();
        external.forEach(m -> recorded.add(m.id()));
        external.add(late);
        ObservedCluster built = ours.build();
        List<Member> all = new ArrayList<>(external);
        all.addAll(((EtcdView.Reached) built.etcd()).membership().members());
        return planner.next(
                with(
                        built,
                        new EtcdView.Reached(new Membership(CLUSTER, all)),
                        new ExternalMembers(true, recorded, answered, false, Optional.of("3.5.16"))),
                desired);
    }

    private Step nextWithRecorded(Observations ours, Set<MemberId> recorded) {
        ObservedCluster built = ours.build();
        return planner.next(
                with(built, built.etcd(), new ExternalMembers(true, recorded, Map.of(), false, Optional.of("3.5.16"))),
                1);
    }

    /** The built observation with etcd's view and the adoption replaced. */
    private static ObservedCluster with(ObservedCluster built, EtcdView view, ExternalMembers adoption) {
        return new ObservedCluster(
                built.clusterId(),
                built.members(),
                view,
                built.auth(),
                built.maintenance(),
                built.observedAt(),
                built.stranded(),
                built.recourse(),
                built.retained(),
                adoption);
    }
}
