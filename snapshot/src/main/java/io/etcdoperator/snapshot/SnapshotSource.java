package io.etcdoperator.snapshot;

import io.etcdoperator.etcd.EndpointStatus;
import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * The member a snapshot streams from, with the Status it answered just before. A snapshot holds what its member
 * applied, so a lagging follower would give an old one that still looks successful.
 */
public record SnapshotSource(URI endpoint, EndpointStatus status) {

    /** Whether the member named itself leader in its Status (its header member id equals its leader id). */
    public boolean leader() {
        return status.isLeader();
    }

    /** The keyspace revision the member reported before streaming; the snapshot holds at least this revision. */
    public long revision() {
        return status.revision();
    }

    /**
     * The healthy voter that leads, else the one furthest along (applied index, then raft index), else empty. Two
     * members may both claim to lead across a partition: the higher term is the real one. Ties keep the list order.
     */
    public static Optional<SnapshotSource> choose(List<SnapshotSource> answered) {
        List<SnapshotSource> healthy =
                answered.stream().filter(SnapshotSource::healthyVoter).toList();
        SnapshotSource best = null;
        for (SnapshotSource candidate : healthy) {
            if (best == null || candidate.ahead(best)) {
                best = candidate;
            }
        }
        return Optional.ofNullable(best);
    }

    boolean healthyVoter() {
        return !status.learner() && status.errors().isEmpty();
    }

    private boolean ahead(SnapshotSource other) {
        if (leader() != other.leader()) {
            return leader();
        }
        if (leader()) {
            return status.raftTerm() > other.status.raftTerm();
        }
        if (status.raftAppliedIndex() != other.status.raftAppliedIndex()) {
            return status.raftAppliedIndex() > other.status.raftAppliedIndex();
        }
        return status.raftIndex() > other.status.raftIndex();
    }
}
