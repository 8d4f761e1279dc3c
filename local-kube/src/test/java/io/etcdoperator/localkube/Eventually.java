package io.etcdoperator.localkube;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/** Polls a condition until it holds, instead of sleeping for a guessed time. */
final class Eventually {

    private static final Duration POLL = Duration.ofMillis(200);

    private Eventually() {}

    /** Returns the first non-null value of {@code probe}; fails with {@code what} after {@code timeout}. */
    static <T> T await(String what, Duration timeout, Supplier<T> probe) {
        Instant deadline = Instant.now().plus(timeout);
        RuntimeException last = null;
        while (Instant.now().isBefore(deadline)) {
            try {
                T value = probe.get();
                if (value != null && !Boolean.FALSE.equals(value)) {
                    return value;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            try {
                Thread.sleep(POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
        throw new AssertionError("timed out after " + timeout + " waiting for " + what, last);
    }
}
