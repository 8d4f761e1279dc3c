package io.etcdoperator.etcd;

import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * The operator's only door to etcd: narrow, synchronous and bounded in time. Every call returns within the
 * connection's timeout or throws an {@link EtcdException} subtype; no jetcd or gRPC type crosses this boundary.
 * Endpoints given to the factory must be voters: a learner answers most RPCs with "rpc not supported for learner".
 * Calls that any voter may answer skip an endpoint that does not answer within its share of the timeout, and try
 * recently silent endpoints last (docs/etcd-client.md).
 */
public interface EtcdAdmin extends AutoCloseable {

    /**
     * MemberList as the answering voter sees it (etcd 3.4 has no linearizable member list); after a change made through
     * this admin it includes that change, since the endpoint that answered last is asked first.
     */
    Membership members();

    /**
     * MemberAddAsLearner. Returns the membership after the add; the new member has an empty name until it starts.
     * Repeated on another endpoint when one did not answer: etcd admits one member per peer URL, so it cannot add twice.
     */
    Membership addLearner(URI peerUrl);

    /**
     * MemberPromote, sent to the leader (found by asking the endpoints' Status), never to a follower. Throws
     * {@link EtcdException.LearnerNotReady} while the learner has not caught up with the leader.
     */
    void promote(MemberId id);

    /**
     * MemberPromote sent to the leader's endpoint: only the leader decides, and a follower forwarding it failed with
     * auth on before etcd 3.5.28. The URL is a hint checked with its Status: should that member no longer lead, the
     * promote goes to the one it names. Throws {@link EtcdException.LearnerNotReady} like {@link #promote(MemberId)}.
     */
    default void promote(MemberId id, URI leaderClientUrl) {
        promote(id);
    }

    /** MemberRemove. Throws {@link EtcdException.MemberNotFound} when etcd no longer knows the id. */
    void remove(MemberId id);

    /** Maintenance Status of one endpoint (which may be a learner: the call targets that endpoint only). */
    EndpointStatus status(URI clientUrl);

    /**
     * Maintenance MoveLeader sent to exactly this endpoint, which must be the current leader's; returns once the
     * transferee leads. Throws {@link EtcdException.NotLeader} when that endpoint's member does not lead (any more),
     * {@link EtcdException.BadLeaderTransferee} when the transferee is unknown or a learner, and
     * {@link EtcdException.Unavailable} when the transfer does not finish within the connection's timeout.
     */
    default void moveLeader(URI leaderClientUrl, MemberId transferee) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot move the leader");
    }

    /**
     * Maintenance Defragment sent to exactly this endpoint, bounded by {@code within} (a large backend takes longer
     * than the connection's timeout). The member serves nothing while it runs; a leader stalls the cluster's writes.
     */
    default void defragment(URI clientUrl, Duration within) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot defragment");
    }

    /** The alarms raised in the cluster (NOSPACE, CORRUPT), as any voter reports them. */
    default List<Alarm> alarms() {
        return List.of();
    }

    /** Disarms one alarm. etcd re-raises NOSPACE on the next write if the member is still over its quota. */
    default void disarm(Alarm alarm) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot disarm alarms");
    }

    /**
     * Compacts the keyspace to its current revision (physically, so a following defragment reclaims the space). An
     * "already compacted" answer is not a failure: it comes back as {@link Compaction#alreadyCompacted()}.
     */
    default Compaction compact() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot compact");
    }

    /** MemberAdd of a voter (not a learner). Only for a person who asks for it: the quorum grows before it starts. */
    default Membership addVoter(URI peerUrl) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot add voters");
    }

    /** Whether authentication is enabled on the cluster. */
    boolean authEnabled();

    /** Creates user root (if missing) with the password, grants it role root, then enables authentication. */
    void enableAuth(String rootPassword);

    /** Sets user root's password (a raft write: needs the quorum); connections made with the old one keep their token. */
    void changeRootPassword(String rootPassword);

    /**
     * Maintenance Snapshot from exactly this endpoint, streamed into the sink as it arrives (never buffered whole).
     * Returns the number of bytes written; the whole stream must finish within {@code within}. A failure of the sink
     * cancels the stream and is rethrown unchanged. The sink is not closed.
     */
    default long snapshot(URI clientUrl, OutputStream sink, Duration within) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not stream snapshots");
    }

    @Override
    void close();

    /** Opens a connection; a test seam for reconcilers (a fake returns an in-memory cluster). */
    interface Factory {
        EtcdAdmin open(EtcdConnection connection);
    }

    /** Convenience for callers that hold a list of endpoints. */
    static List<URI> uris(List<String> endpoints) {
        return endpoints.stream().map(URI::create).toList();
    }
}
