package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The members of a running etcd the cluster is adopting (spec.bootstrap.existing), for one pass. Before the cluster id
 * is latched every member etcd lists is external; after, those status.externalMembers recorded. {@code answered}: the
 * status each gave at its advertised client URL this pass. {@code removalAllowed}: a person's annotation says so.
 */
public record ExternalMembers(
        boolean adopting,
        Set<MemberId> recorded,
        Map<MemberId, EndpointStatus> answered,
        boolean removalAllowed,
        Optional<String> wantedVersion) {

    public static final ExternalMembers NONE = new ExternalMembers(false, Set.of(), Map.of(), false, Optional.empty());

    public ExternalMembers {
        recorded = Set.copyOf(recorded);
        answered = Map.copyOf(answered);
    }

    /** Whether {@code member} is one of the adopted cluster's own (recorded, or any member before the latch). */
    public boolean external(Member member) {
        return adopting && (recorded.isEmpty() || recorded.contains(member.id()));
    }

    /** The external members etcd still lists. */
    public List<Member> listed(Membership membership) {
        return membership.members().stream().filter(this::external).toList();
    }

    /** External voters that answered this pass without an error: they count towards the quorum like a ready member. */
    public int healthyVoters(Membership membership) {
        return (int) listed(membership).stream()
                .filter(m -> !m.learner() && healthy(m))
                .count();
    }

    public boolean healthy(Member member) {
        EndpointStatus status = answered.get(member.id());
        return status != null && status.errors().isEmpty();
    }

    /** The leader as the answering member with the newest raft term reports it. */
    public Optional<MemberId> leader() {
        return answered.values().stream()
                .max(Comparator.comparingLong(EndpointStatus::raftTerm))
                .map(EndpointStatus::leader);
    }
}
