package io.etcdoperator.etcd;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/** A member list together with the cluster id from the response header. */
public record Membership(ClusterId clusterId, List<Member> members) {

    public Membership {
        members = List.copyOf(members);
    }

    public Optional<Member> byPeerUrl(URI peerUrl) {
        return members.stream().filter(m -> m.peerUrls().contains(peerUrl)).findFirst();
    }

    public Optional<Member> byName(String name) {
        return members.stream().filter(m -> m.name().equals(name)).findFirst();
    }

    /**
     * The one rule for finding a member's entry: by its peer URL (known from the learner add on), else by the name it
     * started with (an adopted member whose peer URL was spelled differently).
     */
    public Optional<Member> entryOf(String name, URI peerUrl) {
        return byPeerUrl(peerUrl).or(() -> byName(name));
    }

    public Optional<Member> byId(MemberId id) {
        return members.stream().filter(m -> m.id().equals(id)).findFirst();
    }

    /** This list once etcd accepted MemberPromote for {@code id}: that member votes. */
    public Membership promoted(MemberId id) {
        return new Membership(
                clusterId,
                members.stream()
                        .map(m -> m.id().equals(id) && m.learner()
                                ? new Member(m.id(), m.name(), m.peerUrls(), m.clientUrls(), false)
                                : m)
                        .toList());
    }

    public List<Member> voters() {
        return members.stream().filter(m -> !m.learner()).toList();
    }

    public List<Member> learners() {
        return members.stream().filter(Member::learner).toList();
    }
}
