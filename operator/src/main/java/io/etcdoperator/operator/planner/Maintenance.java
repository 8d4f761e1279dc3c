package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.Alarm;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the maintenance slot needs to know: etcd's alarms, the backend quota the members run with, the defrag run
 * waiting for this cluster, if any, a quorum recovery a person asked for, and the voters already defragmented while
 * the NOSPACE alarm stands, with the keyspace revision each had then ({@code spaceDefragmented}; etcd's own estimate
 * cannot tell, see {@link SpaceAlarms}).
 */
public record Maintenance(
        List<Alarm> alarms,
        long quotaBytes,
        Optional<DefragRun> defrag,
        Optional<QuorumRecovery> recovery,
        Map<String, Long> spaceDefragmented) {

    /**
     * A person asked to restart the cluster from one member's data ({@code force-new-cluster-from}); {@code flagged}
     * names the member whose EtcdMember already carries the one-shot --force-new-cluster, and {@code carriedOut} whether
     * the step's second write happened (a crash between the two leaves the mark without a restart).
     */
    public record QuorumRecovery(String from, Optional<String> flagged, boolean carriedOut) {

        /** {@code carriedOut}: the flagged member's Pod already restarted with the flag, or its guard was asked. */
        public QuorumRecovery(String from, Optional<String> flagged) {
            this(from, flagged, true);
        }
    }

    /** etcd's default backend quota, used when spec.options.quotaBackendBytes is unset or 0. */
    public static final long DEFAULT_QUOTA = 2L * 1024 * 1024 * 1024;

    public static final Maintenance NONE =
            new Maintenance(List.of(), DEFAULT_QUOTA, Optional.empty(), Optional.empty());

    public Maintenance(List<Alarm> alarms, long quotaBytes, Optional<DefragRun> defrag) {
        this(alarms, quotaBytes, defrag, Optional.empty());
    }

    public Maintenance(
            List<Alarm> alarms, long quotaBytes, Optional<DefragRun> defrag, Optional<QuorumRecovery> recovery) {
        this(alarms, quotaBytes, defrag, recovery, Map.of());
    }

    public Maintenance {
        alarms = List.copyOf(alarms);
        spaceDefragmented = Map.copyOf(spaceDefragmented);
    }

    public boolean has(Alarm.Kind kind) {
        return alarms.stream().anyMatch(a -> a.kind() == kind);
    }
}
