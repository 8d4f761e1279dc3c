package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.Membership;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/** The value of --initial-cluster: name=peerURL pairs, sorted by name so the string is stable across passes. */
public final class InitialCluster {

    public record Entry(String name, URI peerUrl) {}

    private InitialCluster() {}

    /** A seed's: itself alone. */
    public static String seed(String name, URI peerUrl) {
        return of(List.of(new Entry(name, peerUrl)));
    }

    public static String of(List<Entry> entries) {
        return entries.stream()
                .sorted(Comparator.comparing(Entry::name))
                .map(e -> e.name() + "=" + e.peerUrl())
                .collect(Collectors.joining(","));
    }

    /**
     * Built from etcd's own member list, echoing each member's persisted peer URL verbatim. A member that has not started
     * has no name in etcd; its EtcdMember (matched by peer URL) names it.
     */
    static String from(Membership membership, ObservedCluster observed, ObservedMember joiner) {
        List<Entry> entries = membership.members().stream()
                .map(m -> new Entry(
                        nameOf(m, observed, joiner.name(), joiner.peerUrl()),
                        m.peerUrls().get(0)))
                .toList();
        return of(entries);
    }

    /** What {@link #from} returns once the joiner (not in etcd's list yet) is added: the list plus its own entry. */
    static String afterAdding(Membership membership, ObservedCluster observed, ObservedMember joiner) {
        return before(membership, observed).with(joiner.name(), joiner.peerUrl());
    }

    /** etcd's members before a joiner is added, named as {@link #from} names them; {@link #with} adds the joiner. */
    public record Peers(List<Entry> entries) {
        public Peers {
            entries = List.copyOf(entries);
        }

        public String with(String joiner, URI joinerPeerUrl) {
            List<Entry> all = new ArrayList<>(entries);
            all.add(new Entry(joiner, joinerPeerUrl));
            return of(all);
        }
    }

    /** etcd's list before a joiner is added; also for one not made yet, whose name comes from the API server. */
    static Peers before(Membership membership, ObservedCluster observed) {
        return new Peers(membership.members().stream()
                .map(m -> new Entry(listedName(m, observed), m.peerUrls().get(0)))
                .toList());
    }

    private static String nameOf(Member member, ObservedCluster observed, String joiner, URI joinerPeerUrl) {
        return member.peerUrls().contains(joinerPeerUrl) ? joiner : listedName(member, observed);
    }

    private static String listedName(Member member, ObservedCluster observed) {
        if (member.started()) {
            return member.name();
        }
        return observed.ownerOf(member)
                .map(ObservedMember::name)
                .orElseGet(() -> member.peerUrls().get(0).getHost().split("\\.")[0]);
    }
}
