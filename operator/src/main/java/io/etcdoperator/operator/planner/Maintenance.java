package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.Alarm;
import java.util.List;
import java.util.Optional;

/**
 * What the maintenance slot needs to know: etcd's alarms, the backend quota the members run with, the defrag run
 * waiting for this cluster, if any, and a quorum recovery a person asked for.
 */
public record Maintenance(List<Alarm> alarms, long quotaBytes, Optional<DefragRun> defrag,
    Optional<QuorumRecovery> recovery) {

  /**
   * A person asked to restart the cluster from one member's data ({@code force-new-cluster-from}); {@code flagged}
   * names the member whose EtcdMember already carries the one-shot --force-new-cluster.
   */
  public record QuorumRecovery(String from, Optional<String> flagged) {}

  /** etcd's default backend quota, used when spec.options.quotaBackendBytes is unset or 0. */
  public static final long DEFAULT_QUOTA = 2L * 1024 * 1024 * 1024;
  public static final Maintenance NONE = new Maintenance(List.of(), DEFAULT_QUOTA, Optional.empty(), Optional.empty());

  public Maintenance(List<Alarm> alarms, long quotaBytes, Optional<DefragRun> defrag) {
    this(alarms, quotaBytes, defrag, Optional.empty());
  }

  public Maintenance {
    alarms = List.copyOf(alarms);
  }

  public boolean has(Alarm.Kind kind) {
    return alarms.stream().anyMatch(a -> a.kind() == kind);
  }
}
