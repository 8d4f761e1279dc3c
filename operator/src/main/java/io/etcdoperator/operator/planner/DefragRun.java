package io.etcdoperator.operator.planner;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The oldest unfinished EtcdDefrag of a cluster, as its status records it. Runs of one cluster go one after another:
 * the others wait for this one.
 *
 * @param overdue started longer than {@link #DEADLINE} ago (the observer compares with its clock)
 * @param members per member name, what the run decided or did so far; empty until the run starts
 */
public record DefragRun(
        String name,
        DefragCriteria criteria,
        Optional<Instant> startedAt,
        boolean overdue,
        Map<String, Progress> members) {

    /** A run that did not finish within this long fails with DeadlineExceeded. */
    public static final Duration DEADLINE = Duration.ofMinutes(30);
    /** Defragment calls per member before it counts as failed. */
    public static final int MAX_ATTEMPTS = 3;

    /** One member's outcome so far: Pending (to do), Skipped, Defragmented or Failed, and the role it started with. */
    public record Progress(String outcome, boolean leader, int attempts) {
        public boolean pending() {
            return "Pending".equals(outcome);
        }

        public boolean failed() {
            return "Failed".equals(outcome);
        }
    }

    public DefragRun {
        members = Map.copyOf(members);
    }

    public boolean started() {
        return startedAt.isPresent();
    }
}
