package io.etcdoperator.operator.threads;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PassQueueTest {

    private static final Instant T0 = Instant.parse("2026-12-06T12:00:00Z");
    private static final Duration WINDOW = Duration.ofMinutes(5);

    private final MovableClock clock = new MovableClock(T0);
    private final List<String> entered = new CopyOnWriteArrayList<>();
    private final List<Thread> passes = new ArrayList<>();

    @Test
    void noMorePassesAtOnceThanTheBound() throws Exception {
        PassQueue queue = new PassQueue(3, WINDOW, clock);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch threeIn = new CountDownLatch(3);
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < 10; i++) {
            passes.add(Thread.ofVirtual().start(() -> {
                try (var turn = queue.enter(T0)) {
                    most.accumulateAndGet(running.incrementAndGet(), Math::max);
                    threeIn.countDown();
                    await(release);
                    running.decrementAndGet();
                }
            }));
        }
        assertThat(threeIn.await(10, TimeUnit.SECONDS)).isTrue();
        awaitWaiting(queue, 7);
        assertThat(running.get())
                .as("passes running while three hold their turns")
                .isEqualTo(3);
        release.countDown();
        joinAll();

        assertThat(most.get()).as("most passes at once").isEqualTo(3);
        assertThat(queue.waiting()).isZero();
    }

    @Test
    void waitingPassesGoInTheOrderOfTheirClustersCreation() throws Exception {
        PassQueue queue = new PassQueue(1, WINDOW, clock);
        PassQueue.Turn held = queue.enter(T0);
        clock.advance(Duration.ofMinutes(1));
        waitFor(queue, "created third", T0.plusSeconds(30), 1);
        waitFor(queue, "created first", T0.plusSeconds(10), 2);
        waitFor(queue, "created second", T0.plusSeconds(20), 3);
        waitFor(queue, "created second, came later", T0.plusSeconds(20), 4);

        held.close();
        joinAll();

        assertThat(entered)
                .containsExactly("created first", "created second", "created second, came later", "created third");
    }

    @Test
    void anOlderClustersPassJumpsNoFurtherAheadThanTheWindow() throws Exception {
        PassQueue queue = new PassQueue(1, WINDOW, clock);
        PassQueue.Turn held = queue.enter(T0);
        clock.set(T0.plus(Duration.ofHours(1)));
        waitFor(queue, "new cluster", T0.plus(Duration.ofHours(1)), 1);
        clock.advance(WINDOW.plusSeconds(1));
        waitFor(queue, "old cluster, came after the window", T0.minus(Duration.ofDays(30)), 2);
        clock.advance(Duration.ofSeconds(-2));
        waitFor(queue, "old cluster, came within the window", T0.minus(Duration.ofDays(30)), 3);

        held.close();
        joinAll();

        assertThat(entered)
                .containsExactly(
                        "old cluster, came within the window", "new cluster", "old cluster, came after the window");
    }

    @Test
    void anUnknownOrFutureCreationCountsAsTheArrival() throws Exception {
        PassQueue queue = new PassQueue(1, WINDOW, clock);
        PassQueue.Turn held = queue.enter(T0);
        waitFor(queue, "no creation time", PassQueue.created(null), 1);
        clock.advance(Duration.ofSeconds(1));
        waitFor(queue, "created in a second", T0.plusSeconds(1), 2);
        clock.advance(Duration.ofSeconds(1));
        waitFor(queue, "unreadable creation time", PassQueue.created("yesterday"), 3);
        waitFor(queue, "created in an hour", T0.plus(Duration.ofHours(1)), 4);

        held.close();
        joinAll();

        assertThat(entered)
                .containsExactly(
                        "no creation time", "created in a second", "unreadable creation time", "created in an hour");
    }

    @Test
    void closingATurnTwiceFreesOneTurn() throws Exception {
        PassQueue queue = new PassQueue(1, WINDOW, clock);
        PassQueue.Turn first = queue.enter(T0);
        CountDownLatch secondHolds = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        passes.add(Thread.ofVirtual().start(() -> {
            try (var turn = queue.enter(T0)) {
                secondHolds.countDown();
                await(release);
            }
        }));
        awaitWaiting(queue, 1);
        waitFor(queue, "third", T0, 2);

        first.close();
        first.close();
        assertThat(secondHolds.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(queue.waiting())
                .as("passes still waiting after two closes of one turn")
                .isEqualTo(1);
        assertThat(entered).isEmpty();

        release.countDown();
        joinAll();
        assertThat(entered).containsExactly("third");
    }

    /** A pass that records its turn and ends; returns once it waits as the {@code nth} in the queue. */
    private void waitFor(PassQueue queue, String name, Instant created, int nth) throws InterruptedException {
        passes.add(Thread.ofVirtual().start(() -> {
            try (var turn = queue.enter(created)) {
                entered.add(name);
            }
        }));
        awaitWaiting(queue, nth);
    }

    private static void awaitWaiting(PassQueue queue, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (queue.waiting() != count && System.nanoTime() < deadline) {
            Thread.sleep(1); // polls a condition the queue has no callback for
        }
        assertThat(queue.waiting()).as("passes waiting").isEqualTo(count);
    }

    private void joinAll() throws InterruptedException {
        for (Thread pass : passes) {
            assertThat(pass.join(Duration.ofSeconds(10))).as(pass + " ended").isTrue();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
