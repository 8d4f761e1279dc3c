package io.etcdoperator.e2e;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/** Polls a condition until it holds or a deadline passes; the failure names what was awaited and the last value. */
public final class Await {

    private static final Duration POLL = Duration.ofMillis(250);

    private Await() {}

    public static void until(String what, Duration timeout, Supplier<Boolean> condition) {
        until(what, timeout, POLL, condition);
    }

    /** As above, looking every {@code poll}: a benchmark's end must not be late by up to a whole default poll. */
    public static void until(String what, Duration timeout, Duration poll, Supplier<Boolean> condition) {
        value(what, timeout, poll, () -> Boolean.TRUE.equals(condition.get()) ? Optional.of(true) : Optional.empty());
    }

    /** Returns the first present value; exceptions while polling count as "not yet" and are reported on timeout. */
    public static <T> T value(String what, Duration timeout, Supplier<Optional<T>> probe) {
        return value(what, timeout, POLL, probe);
    }

    private static <T> T value(String what, Duration timeout, Duration poll, Supplier<Optional<T>> probe) {
        Instant deadline = Instant.now().plus(timeout);
        RuntimeException last = null;
        while (true) {
            try {
                Optional<T> value = probe.get();
                if (value.isPresent()) {
                    return value.get();
                }
            } catch (RuntimeException e) {
                last = e;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(
                        "timed out after " + timeout.toSeconds() + " s waiting for " + what
                                + (last == null ? "" : "; last error: " + last),
                        last);
            }
            try {
                Thread.sleep(poll);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }
}
