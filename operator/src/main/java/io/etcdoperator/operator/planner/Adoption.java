package io.etcdoperator.operator.planner;

import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.planner.EtcdView.Reached;
import io.etcdoperator.operator.planner.EtcdView.Unreachable;
import io.etcdoperator.operator.planner.Step.Wait;
import io.etcdoperator.operator.planner.VersionPolicy.EtcdVersion;
import io.etcdoperator.operator.reason.Reason;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Taking over a running etcd (spec.bootstrap.existing) without downtime: its id is latched and its members recorded
 * as external, the operator's members join as learners one at a time and are promoted (the usual scale-up, quorum
 * counted with the external voters that answer), leadership moves to one of them, and the external members are
 * removed one at a time once a person allows it. docs/operations.md, "Adopt a running etcd", has the runbook.
 */
final class Adoption {

    /** The most voters the cluster may have at once, the external ones and the operator's together. */
    static final int MAX_VOTERS = 9;

    private Adoption() {}

    /** Before the id is latched: every member of the running cluster must answer, on the target's minor version. */
    static Step bootstrap(ObservedCluster observed, int desired) {
        if (!(observed.etcd() instanceof Reached reached)) {
            return observed.etcd() instanceof Unreachable u
                    ? new Wait(
                            u.reason(), "the running etcd to adopt does not answer: " + u.detail(), ClusterPlanner.LONG)
                    : new Wait(Reason.CLUSTER_UNREACHABLE, "no client URL to dial", ClusterPlanner.LONG);
        }
        Membership membership = reached.membership();
        Optional<String> alarms = observed.maintenance().alarms().isEmpty()
                ? Optional.empty()
                : Optional.of("the running cluster has alarms raised ("
                        + observed.maintenance().alarms() + "): disarm them first");
        return alarms.or(() -> refusal(observed.external(), membership, desired))
                .<Step>map(why -> new Wait(Reason.ADOPTION_REFUSED, why, ClusterPlanner.LONG))
                .orElseGet(() -> new AdoptionSteps.Adopt(
                        membership.clusterId(),
                        membership.members().stream().map(Member::id).toList(),
                        names(membership.members())));
    }

    static Optional<String> refusal(ExternalMembers external, Membership membership, int desired) {
        if (desired == 0) {
            return Optional.of("spec.replicas is 0: there is no member to move the cluster to");
        }
        List<Member> multi = membership.members().stream()
                .filter(m -> m.peerUrls().size() != 1)
                .toList();
        if (!multi.isEmpty()) {
            return Optional.of("member(s) " + names(multi) + " advertise more than one peer URL; a joining member's "
                    + "--initial-cluster names one per member");
        }
        if (!membership.learners().isEmpty()) {
            return Optional.of("the running cluster has a learner (" + names(membership.learners())
                    + "): promote or remove it first; etcd admits one learner at a time");
        }
        List<Member> silent =
                membership.members().stream().filter(m -> !external.healthy(m)).toList();
        if (!silent.isEmpty()) {
            return Optional.of("member(s) " + names(silent) + " did not answer at their advertised client URL or "
                    + "report errors: every member must be healthy, or a promotion could cost the quorum");
        }
        Optional<EtcdVersion> wanted = external.wantedVersion().flatMap(EtcdVersion::parse);
        for (EndpointStatus status : external.answered().values()) {
            Optional<EtcdVersion> running = EtcdVersion.parse(status.version());
            if (wanted.isEmpty()
                    || running.isEmpty()
                    || !running.get().minorLine().equals(wanted.get().minorLine())) {
                return Optional.of("member " + status.memberId() + " runs etcd " + status.version() + " and "
                        + "spec.version is " + external.wantedVersion().orElse("unset") + ": adopt on the minor "
                        + "version it runs, then upgrade");
            }
        }
        int peak = membership.voters().size() + desired;
        if (peak > MAX_VOTERS) {
            return Optional.of("the cluster would have " + peak + " voters at once ("
                    + membership.voters().size()
                    + " external, " + desired + " new; at most " + MAX_VOTERS + "): remove external members or "
                    + "adopt with fewer replicas and scale up after");
        }
        return Optional.empty();
    }

    /**
     * etcd lists none of the external members any more (the last removal done, or done by hand): Finish. While they
     * vote, replicas 0 would park the operator's last voter beside them: refused.
     */
    static Optional<Step> hold(ObservedCluster observed, Membership membership, int desired) {
        ExternalMembers external = observed.external();
        if (external.adopting() && external.listed(membership).isEmpty()) {
            return Optional.of(new AdoptionSteps.Finish());
        }
        if (observed.adopting() && desired == 0) {
            return Optional.of(new Wait(
                    Reason.ADOPTION_REFUSED,
                    "spec.replicas is 0 while the adopted cluster's own members vote: finish the adoption first",
                    ClusterPlanner.LONG));
        }
        return Optional.empty();
    }

    /** Once the operator's members are all in and ready: leadership to one of them, then the person's go-ahead. */
    static Optional<Step> handOver(ObservedCluster observed, Membership membership) {
        ExternalMembers external = observed.external();
        List<Member> listed = external.listed(membership);
        if (!external.adopting() || listed.isEmpty()) {
            return Optional.empty();
        }
        Optional<Member> externalLeader = external.leader(observed.running().stream()
                        .flatMap(m -> m.endpoint().stream())
                        .toList())
                .flatMap(membership::byId)
                .filter(external::external);
        if (externalLeader.isPresent()) {
            return transferee(observed, membership)
                    .map(t -> (Step) new AdoptionSteps.HandOverLeadership(
                            external.clientUrl(externalLeader.get()),
                            externalLeader.get().name(),
                            t.name(),
                            t.memberId().orElseThrow()))
                    .or(() -> Optional.of(new Wait(
                            Reason.MEMBERS_NOT_READY,
                            "no ready voter of the operator's to hand leadership to yet",
                            ClusterPlanner.SHORT)));
        }
        if (!external.removalAllowed()) {
            return Optional.of(new Wait(
                    Reason.ADOPTION_AWAITING_REMOVAL,
                    listed.size() + " external member(s) still vote (" + names(listed) + "); once every client "
                            + "uses the cluster's client Service, annotate the EtcdCluster "
                            + EtcdOperatorApi.ANNOTATION_REMOVE_EXTERNAL_MEMBERS
                            + "=true to remove them one at a time",
                    ClusterPlanner.LONG));
        }
        Member victim = listed.stream()
                .min(Comparator.comparing((Member m) -> external.healthy(m)).thenComparing(Member::name))
                .orElseThrow();
        int readyAfter = observed.readyVoters(membership) - (external.healthy(victim) && !victim.learner() ? 1 : 0);
        if (!victim.learner() && !Quorum.holds(readyAfter, membership.voters().size() - 1)) {
            return Optional.of(new Wait(
                    Reason.QUORUM_AT_RISK,
                    "removing external member " + victim.name() + " now would lose quorum",
                    ClusterPlanner.LONG));
        }
        return Optional.of(new AdoptionSteps.RemoveExternal(victim.id(), victim.name(), listed.size() - 1));
    }

    private static Optional<ObservedMember> transferee(ObservedCluster observed, Membership membership) {
        return observed.running().stream()
                .filter(m -> m.ready() && m.memberId().isPresent() && m.votesIn(membership))
                .min(Comparator.comparing(ObservedMember::name));
    }

    private static String names(List<Member> members) {
        return members.stream()
                .map(m -> m.name().isEmpty() ? m.id().hex() : m.name())
                .sorted()
                .collect(Collectors.joining(", "));
    }
}
