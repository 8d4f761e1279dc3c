package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.MemberId;
import java.net.URI;
import java.time.Instant;
import java.util.Optional;

/**
 * One EtcdMember as seen in this pass.
 *
 * @param pending an EtcdMember whose initial cluster is not written yet (no Pod can start)
 * @param ready the member's Ready condition: Pod ready and etcd member id known
 * @param voterMark status.isVoter, the operator's last record of etcd's view (used to pick dial endpoints)
 * @param controlled whether the EtcdMember is controlled by this cluster's UID
 */
public record ObservedMember(
    String name,
    Instant created,
    boolean seed,
    boolean pending,
    boolean dormant,
    boolean deleting,
    boolean ready,
    boolean hasPod,
    boolean voterMark,
    Optional<MemberId> memberId,
    URI peerUrl,
    boolean controlled) {

  public boolean running() {
    return !deleting && !dormant;
  }
}
