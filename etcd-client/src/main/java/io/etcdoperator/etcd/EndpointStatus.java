package io.etcdoperator.etcd;

import java.util.List;

/** Maintenance Status of one endpoint; {@code revision} is the keyspace revision its header carries. */
public record EndpointStatus(
        String version,
        MemberId memberId,
        MemberId leader,
        long raftIndex,
        long raftAppliedIndex,
        long raftTerm,
        long dbSize,
        long dbSizeInUse,
        long revision,
        boolean learner,
        List<String> errors) {

    public EndpointStatus {
        errors = List.copyOf(errors);
    }

    public boolean isLeader() {
        return memberId.equals(leader);
    }
}
