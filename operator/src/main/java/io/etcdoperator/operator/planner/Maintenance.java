package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.Alarm;
import java.util.List;
import java.util.Optional;

/**
 * What the maintenance slot needs to know: etcd's alarms, the backend quota the members run with, and the defrag run
 * waiting for this cluster, if any.
 */
public record Maintenance(List<Alarm> alarms, long quotaBytes, Optional<DefragRun> defrag) {

  /** etcd's default backend quota, used when spec.options.quotaBackendBytes is unset or 0. */
  public static final long DEFAULT_QUOTA = 2L * 1024 * 1024 * 1024;
  public static final Maintenance NONE = new Maintenance(List.of(), DEFAULT_QUOTA, Optional.empty());

  public Maintenance {
    alarms = List.copyOf(alarms);
  }

  public boolean has(Alarm.Kind kind) {
    return alarms.stream().anyMatch(a -> a.kind() == kind);
  }
}
