package io.etcdoperator.operator.threads;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The cluster and member passes' turns: at most {@code concurrency} at once, and a waiting pass goes in the order of
 * its cluster's creation, so a fleet that forms at once finishes its oldest clusters first instead of moving every
 * cluster one step per round. No pass is overtaken by one that came more than {@code window} after it. See
 * docs/concepts.md, "Pass order".
 */
public final class PassQueue {

    /** How far a pass of an older cluster may jump ahead: about a fleet's formation, so no pass waits for ever. */
    public static final Duration WINDOW = Duration.ofMinutes(5);

    private static final Comparator<Waiter> ORDER =
            Comparator.comparing((Waiter w) -> w.order).thenComparingLong(w -> w.arrival);

    private final int concurrency;
    private final Duration window;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final PriorityQueue<Waiter> waiting = new PriorityQueue<>(ORDER);
    private int running; // while anyone waits, running == concurrency: a freed turn goes straight to the next
    private long arrivals;

    public PassQueue(int concurrency, Duration window, Clock clock) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1, not " + concurrency);
        }
        this.concurrency = concurrency;
        this.window = window;
        this.clock = clock;
    }

    /** A pass's turn, held until closed; closing it again does nothing. */
    public final class Turn implements AutoCloseable {
        private boolean closed;

        private Turn() {}

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                leave();
            }
        }
    }

    private static final class Waiter {
        private final Instant order;
        private final long arrival;
        private final Condition turn;
        private boolean admitted;

        private Waiter(Instant order, long arrival, Condition turn) {
            this.order = order;
            this.arrival = arrival;
            this.turn = turn;
        }
    }

    /**
     * Waits for a turn for a pass of a cluster created at {@code clusterCreated}, ordered by that time but never
     * before the pass's arrival less the window, nor after its arrival. Not interruptible, as a task queued in a
     * bounded pool was not: a stopping operator lets the passes it had taken in end as before.
     */
    public Turn enter(Instant clusterCreated) {
        Instant arrived = clock.instant();
        Instant order = latest(earliest(clusterCreated, arrived), arrived.minus(window));
        lock.lock();
        try {
            if (running < concurrency) {
                running++;
                return new Turn();
            }
            Waiter waiter = new Waiter(order, arrivals++, lock.newCondition());
            waiting.add(waiter);
            while (!waiter.admitted) {
                waiter.turn.awaitUninterruptibly();
            }
            return new Turn();
        } finally {
            lock.unlock();
        }
    }

    /**
     * A creation time read from an object's metadata; an unknown one counts as the pass's arrival (the clamp in
     * {@link #enter}).
     */
    public static Instant created(String creationTimestamp) {
        try {
            return creationTimestamp == null ? Instant.MAX : Instant.parse(creationTimestamp);
        } catch (DateTimeParseException e) {
            return Instant.MAX;
        }
    }

    /** Passes waiting for a turn now (a gauge: how far behind the reconcilers are). */
    public int waiting() {
        lock.lock();
        try {
            return waiting.size();
        } finally {
            lock.unlock();
        }
    }

    private static Instant earliest(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private void leave() {
        lock.lock();
        try {
            Waiter next = waiting.poll();
            if (next == null) {
                running--;
                return;
            }
            next.admitted = true; // the turn passes on: running stays as it is
            next.turn.signal();
        } finally {
            lock.unlock();
        }
    }
}
