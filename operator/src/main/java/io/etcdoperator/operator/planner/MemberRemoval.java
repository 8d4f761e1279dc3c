package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import java.net.URI;
import java.util.Optional;

/**
 * The EtcdMember finalizer's decision: MemberRemove only for the entry etcd lists for this member, the finalizer
 * released once nothing is left to remove it from, and held while a voter may still list it but none answers.
 */
public final class MemberRemoval {

    private MemberRemoval() {}

    /**
     * The deleted member and its cluster. {@code recordedId}: status.memberID, which names the entry even if the name
     * or peer URL changed; {@code externalVoting}: an adopted etcd's own members still vote (they outlive the cluster);
     * {@code peers}: read only when the cluster's state leaves the decision to them.
     */
    public record Facts(
            String member,
            Optional<MemberId> recordedId,
            URI peerUrl,
            boolean clusterPresent,
            boolean clusterDeleting,
            boolean externalVoting,
            boolean resetAsked,
            Optional<Peers> peers) {

        public Facts withPeers(Peers read) {
            return new Facts(
                    member,
                    recordedId,
                    peerUrl,
                    clusterPresent,
                    clusterDeleting,
                    externalVoting,
                    resetAsked,
                    Optional.of(read));
        }
    }

    /**
     * The cluster's other EtcdMembers: {@code dialable}, a voter among them (or an adopted etcd's own member) to send
     * MemberRemove through; {@code othersExist}, any member besides this one.
     */
    public record Peers(boolean dialable, boolean othersExist) {}

    /** What etcd answered when asked for its member list. */
    public sealed interface EtcdAnswer {
        record Listed(Membership membership) implements EtcdAnswer {}

        record Unreachable(String error) implements EtcdAnswer {}
    }

    /** The finalizer's next step. */
    public sealed interface RemovalStep {
        /** Nothing to remove the member from: the finalizer goes. */
        record Release(String detail) implements RemovalStep {}

        /** The member may still be listed by a voter that does not answer: keep the finalizer, look again. */
        record Hold(String detail) implements RemovalStep {}

        /** Read the cluster's other EtcdMembers into {@link Facts#peers}, then decide again. */
        record ReadMembers() implements RemovalStep {}

        /** Dial a voter and read etcd's member list; then decide with {@link #next(Facts, EtcdAnswer)}. */
        record AskEtcd() implements RemovalStep {}

        /** MemberRemove of this entry. */
        record RemoveFromEtcd(MemberId id) implements RemovalStep {}
    }

    public static RemovalStep next(Facts f) {
        if (!f.clusterPresent() || (f.clusterDeleting() && !f.externalVoting())) {
            return new RemovalStep.Release("cluster is being deleted; MemberRemove skipped");
        }
        if (f.resetAsked()) { // no etcd left to remove this member from
            return new RemovalStep.Release(
                    "every member lost its data and the cluster is reset to empty; MemberRemove skipped");
        }
        if (f.peers().isEmpty()) {
            return new RemovalStep.ReadMembers();
        }
        if (!f.peers().get().dialable()) {
            return f.peers().get().othersExist()
                    ? new RemovalStep.Hold("no reachable voter to remove this member through")
                    : new RemovalStep.Release("last member; nothing to remove it from");
        }
        return new RemovalStep.AskEtcd();
    }

    public static RemovalStep next(Facts f, EtcdAnswer answer) {
        RemovalStep first = next(f);
        if (!(first instanceof RemovalStep.AskEtcd)) {
            return first;
        }
        return switch (answer) {
            case EtcdAnswer.Unreachable u -> new RemovalStep.Hold(u.error());
            case EtcdAnswer.Listed l ->
                entry(f, l.membership())
                        .<RemovalStep>map(m -> new RemovalStep.RemoveFromEtcd(m.id()))
                        .orElse(new RemovalStep.Release("not in etcd's member list"));
        };
    }

    /** By the recorded id when there is one (a recorded id etcd no longer lists is gone), else by name or peer URL. */
    private static Optional<Member> entry(Facts f, Membership membership) {
        return f.recordedId().isPresent()
                ? membership.byId(f.recordedId().get())
                : membership.entryOf(f.member(), f.peerUrl());
    }
}
