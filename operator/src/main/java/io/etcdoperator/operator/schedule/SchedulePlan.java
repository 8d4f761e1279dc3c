package io.etcdoperator.operator.schedule;

import io.etcdoperator.operator.schedule.RetentionPlan.Candidate;
import io.etcdoperator.operator.schedule.RetentionPlan.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * One pass of an EtcdSnapshotSchedule, pure: whether a firing is due (and whether it must be skipped because the
 * previous snapshot has not finished), which snapshots retention prunes, and when to look again. After downtime only
 * the latest missed firing runs: one fresh backup is worth more than a burst of them.
 */
public final class SchedulePlan {

    /** While a snapshot runs or a prune is in flight, look again this often even if the next firing is far away. */
    public static final Duration BUSY_POLL = Duration.ofSeconds(15);
    /** Bounds the catch-up walk over missed firings (a minutely schedule missed for over a week fires once anyway). */
    private static final int MAX_MISSED = 20_000;

    private static final DateTimeFormatter NAME_TIME =
            DateTimeFormatter.ofPattern("yyyyMMddHHmm").withZone(ZoneOffset.UTC);

    /** One of the schedule's snapshots; {@code pruning} once an earlier pass chose it for pruning. */
    public record Snapshot(String name, Instant created, Outcome outcome, boolean pruning) {}

    public record Observation(
            CronSchedule cron,
            ZoneId zone,
            boolean suspended,
            Instant scheduleCreated,
            Optional<Instant> lastScheduled,
            Instant now,
            List<Snapshot> snapshots,
            Optional<Integer> keepLast,
            Optional<Duration> maxAge) {}

    /**
     * @param slot the due firing, if any: recorded as lastScheduleTime whether or not a snapshot is created
     * @param create whether to create the slot's snapshot (false when suspended or the previous one still runs)
     */
    public record Decision(
            Optional<Instant> slot, boolean create, List<String> prune, Instant nextFiring, Duration recheck) {}

    private SchedulePlan() {}

    /** The runs still going, by name, for status.active: null when none, so that the field stays unset. */
    public static List<String> active(List<Snapshot> runs) {
        List<String> active = runs.stream()
                .filter(s -> s.outcome() == Outcome.RUNNING)
                .map(Snapshot::name)
                .sorted()
                .toList();
        return active.isEmpty() ? null : active;
    }

    public static Decision decide(Observation o) {
        Instant base = o.lastScheduled().orElse(o.scheduleCreated());
        Optional<Instant> slot = latestDue(o.cron(), o.zone(), base, o.now());
        if (o.suspended()) {
            slot = Optional.empty(); // not recorded either, so unsuspending runs the latest missed firing
        }
        boolean running = o.snapshots().stream().anyMatch(s -> s.outcome() == Outcome.RUNNING);
        boolean create = slot.isPresent() && !running;
        List<String> prune = prune(o);
        Instant next = o.cron().next(ZonedDateTime.ofInstant(o.now(), o.zone())).toInstant();
        Duration untilNext = Duration.between(o.now(), next);
        boolean busy = running || create || !prune.isEmpty();
        Duration recheck = busy && BUSY_POLL.compareTo(untilNext) < 0 ? BUSY_POLL : untilNext;
        return new Decision(
                slot, create, prune, next, recheck.isNegative() || recheck.isZero() ? Duration.ofSeconds(1) : recheck);
    }

    /** {@code <schedule>-<yyyyMMddHHmm>} of the firing in UTC: a repeated local hour (DST) cannot reuse a name. */
    public static String snapshotName(String schedule, Instant slot) {
        return schedule + "-" + NAME_TIME.format(slot);
    }

    /** The last firing in (base, now], if any. */
    static Optional<Instant> latestDue(CronSchedule cron, ZoneId zone, Instant base, Instant now) {
        ZonedDateTime t = ZonedDateTime.ofInstant(base, zone);
        Optional<Instant> due = Optional.empty();
        for (int i = 0; i < MAX_MISSED; i++) {
            ZonedDateTime next = cron.next(t);
            if (next.toInstant().isAfter(now)) {
                return due;
            }
            due = Optional.of(next.toInstant());
            t = next;
        }
        return latestDue(cron, zone, now.minus(Duration.ofDays(8)), now);
    }

    private static List<String> prune(Observation o) {
        List<Candidate> candidates = new ArrayList<>();
        TreeSet<String> prune = new TreeSet<>();
        for (Snapshot s : o.snapshots()) {
            candidates.add(new Candidate(s.name(), s.created(), s.outcome()));
            if (s.pruning()) {
                prune.add(s.name()); // a choice once made stands, even if retention was relaxed since
            }
        }
        if (o.keepLast().isPresent() || o.maxAge().isPresent()) {
            prune.addAll(RetentionPlan.prune(candidates, o.keepLast(), o.maxAge(), o.now()));
        }
        return List.copyOf(prune);
    }
}
