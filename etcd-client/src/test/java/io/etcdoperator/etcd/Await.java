package io.etcdoperator.etcd;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Polls a probe until it yields a value. The bound only keeps a broken run from hanging; how long the wait took is
 * never asserted on. An {@link EtcdException} from the probe (a member restarting, say) counts as "not yet".
 */
final class Await {

    private static final Duration POLL = Duration.ofMillis(50);

    private Await() {}

    static <T> T until(String what, Duration within, Supplier<Optional<T>> probe) {
        Instant deadline = Instant.now().plus(within);
        EtcdException lastFailure = null;
        while (true) {
            try {
                Optional<T> value = probe.get();
                if (value.isPresent()) {
                    return value.get();
                }
                lastFailure = null;
            } catch (EtcdException e) {
                lastFailure = e;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("not within " + within + ": " + what, lastFailure);
            }
            try {
                Thread.sleep(POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }
}
