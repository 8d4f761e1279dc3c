package io.etcdoperator.etcd;

import java.util.List;

/** Maintenance Status of one endpoint. */
public record EndpointStatus(
    String version,
    MemberId memberId,
    MemberId leader,
    long raftIndex,
    long raftAppliedIndex,
    long raftTerm,
    long dbSize,
    long dbSizeInUse,
    boolean learner,
    List<String> errors) {

  public EndpointStatus {
    errors = List.copyOf(errors);
  }

  public boolean isLeader() {
    return memberId.equals(leader);
  }
}
