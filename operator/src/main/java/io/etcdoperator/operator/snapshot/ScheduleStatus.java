package io.etcdoperator.operator.snapshot;

import io.etcdoperator.api.v1alpha2.EtcdSnapshot;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotSchedule;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotScheduleStatus;
import io.etcdoperator.api.v1alpha2.ScheduleFailure;
import io.etcdoperator.operator.schedule.RetentionPlan.Outcome;
import io.etcdoperator.operator.schedule.SchedulePlan;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A schedule's status from its snapshots: the active ones, the last success and failure, and its Ready condition. */
final class ScheduleStatus {

    private ScheduleStatus() {}

    static EtcdSnapshotScheduleStatus of(
            EtcdSnapshotSchedule schedule,
            List<EtcdSnapshot> owned,
            Optional<Instant> slot,
            boolean ready,
            String reason,
            String message,
            Instant now) {
        EtcdSnapshotScheduleStatus before =
                schedule.getStatus() == null ? new EtcdSnapshotScheduleStatus() : schedule.getStatus();
        EtcdSnapshotScheduleStatus after = new EtcdSnapshotScheduleStatus();
        after.setLastScheduleTime(slot.map(ScheduleStatus::time).orElse(before.getLastScheduleTime()));
        after.setActive(SchedulePlan.active(
                owned.stream().map(ScheduleReconcile::planned).toList()));
        after.setLastSuccessfulTime(latest(
                before.getLastSuccessfulTime(),
                owned.stream()
                        .filter(s -> ScheduleReconcile.planned(s).outcome() == Outcome.COMPLETE)
                        .map(ScheduleStatus::finishedAt)
                        .flatMap(Optional::stream)
                        .max(Comparator.naturalOrder())
                        .map(ScheduleStatus::time)
                        .orElse(null)));
        after.setLastFailure(lastFailure(before.getLastFailure(), owned));
        after.setObservedGeneration(schedule.getMetadata().getGeneration());
        after.setConditions(Conditions.set(
                before.getConditions(),
                Conditions.READY,
                ready,
                reason,
                message,
                schedule.getMetadata().getGeneration(),
                now));
        return after;
    }

    /** The newest failure seen; kept after its snapshot was pruned. */
    private static ScheduleFailure lastFailure(ScheduleFailure before, List<EtcdSnapshot> owned) {
        ScheduleFailure newest = before;
        for (EtcdSnapshot s : owned) {
            if (ScheduleReconcile.planned(s).outcome() != Outcome.FAILED
                    || finishedAt(s).isEmpty()) {
                continue;
            }
            String when = time(finishedAt(s).get());
            if (newest == null
                    || newest.getTime() == null
                    || Instant.parse(when).isAfter(Instant.parse(newest.getTime()))) {
                Optional<Condition> ready = Conditions.find(s.getStatus().getConditions(), Conditions.READY);
                ScheduleFailure f = new ScheduleFailure();
                f.setTime(when);
                f.setSnapshot(s.getMetadata().getName());
                f.setReason(ready.map(Condition::getReason).orElse(null));
                f.setMessage(ready.map(Condition::getMessage).orElse(null));
                newest = f;
            }
        }
        return newest;
    }

    /** When a snapshot finished: its Ready condition's last transition (into True, or False with the failure). */
    private static Optional<Instant> finishedAt(EtcdSnapshot s) {
        return Conditions.find(s.getStatus() == null ? null : s.getStatus().getConditions(), Conditions.READY)
                .map(Condition::getLastTransitionTime)
                .filter(Objects::nonNull)
                .map(Instant::parse);
    }

    private static String latest(String a, String b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return Instant.parse(a).isAfter(Instant.parse(b)) ? a : b;
    }

    static String time(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
