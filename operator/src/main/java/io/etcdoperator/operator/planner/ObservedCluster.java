package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.ClusterId;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** An immutable picture of one EtcdCluster for one pass: its latched cluster id, its EtcdMembers and etcd's view. */
public record ObservedCluster(Optional<ClusterId> clusterId, List<ObservedMember> members, EtcdView etcd) {

  /** Newest first: the order in which scale-down picks victims (creation time, then name, both descending). */
  public static final Comparator<ObservedMember> NEWEST_FIRST =
      Comparator.comparing(ObservedMember::created).thenComparing(ObservedMember::name).reversed();

  public ObservedCluster {
    members = List.copyOf(members);
  }

  public List<ObservedMember> running() {
    return members.stream().filter(ObservedMember::running).toList();
  }

  public List<ObservedMember> dormant() {
    return members.stream().filter(m -> m.dormant() && !m.deleting()).toList();
  }

  public boolean anyDeleting() {
    return members.stream().anyMatch(ObservedMember::deleting);
  }

  public Optional<ObservedMember> seed() {
    return members.stream().filter(m -> m.seed() && !m.deleting()).findFirst();
  }

  public Optional<ObservedMember> pendingJoiner() {
    return running().stream().filter(m -> m.pending() && !m.seed()).findFirst();
  }

  public int readyRunning() {
    return (int) running().stream().filter(ObservedMember::ready).count();
  }

  public Optional<ObservedMember> byName(String name) {
    return members.stream().filter(m -> m.name().equals(name)).findFirst();
  }
}
