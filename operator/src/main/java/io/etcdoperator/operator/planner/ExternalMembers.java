package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import java.net.URI;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

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
        Optional<String> wantedVersion,
        Map<MemberId, URI> answeredAt) {

    public static final ExternalMembers NONE = new ExternalMembers(false, Set.of(), Map.of(), false, Optional.empty());

    public ExternalMembers {
        recorded = Set.copyOf(recorded);
        answered = Map.copyOf(answered);
        answeredAt = Map.copyOf(answeredAt);
    }

    public ExternalMembers(
            boolean adopting,
            Set<MemberId> recorded,
            Map<MemberId, EndpointStatus> answered,
            boolean removalAllowed,
            Optional<String> wantedVersion) {
        this(adopting, recorded, answered, removalAllowed, wantedVersion, Map.of());
    }

    /** The advertised client URL at which the member answered as itself this pass, else its first one. */
    public URI clientUrl(Member member) {
        return Optional.ofNullable(answeredAt.get(member.id()))
                .orElseGet(() -> member.clientUrls().getFirst());
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

    /** The leader as the answer with the newest raft term names it, among these and {@code others}; 0 is none. */
    public Optional<MemberId> leader(List<EndpointStatus> others) {
        return Stream.concat(answered.values().stream(), others.stream())
                .filter(s -> s.leader().value() != 0)
                .max(Comparator.comparingLong(EndpointStatus::raftTerm))
                .map(EndpointStatus::leader);
    }
}
