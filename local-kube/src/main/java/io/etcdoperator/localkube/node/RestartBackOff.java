package io.etcdoperator.localkube.node;

import java.time.Duration;

/**
 * The kubelet's restart back-off: the first restart is immediate, then the delay starts at {@code initial} and
 * doubles up to {@code cap}. A container that ran for twice the cap without failing starts over.
 */
public record RestartBackOff(Duration initial, Duration cap) {

    public static final RestartBackOff KUBELET = new RestartBackOff(Duration.ofSeconds(10), Duration.ofMinutes(5));

    public RestartBackOff {
        if (initial.isNegative() || cap.compareTo(initial) < 0) {
            throw new IllegalArgumentException("back-off needs 0 <= initial <= cap");
        }
    }

    /** The wait before restart number {@code restart} (1-based) of a run of failures. */
    public Duration delayBefore(int restart) {
        if (restart <= 1) {
            return Duration.ZERO;
        }
        Duration delay = initial;
        for (int i = 2; i < restart && delay.compareTo(cap) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return delay.compareTo(cap) > 0 ? cap : delay;
    }

    /** True when a container that ran for {@code uptime} has earned a fresh start of the back-off. */
    public boolean resetsAfter(Duration uptime) {
        return uptime.compareTo(cap.multipliedBy(2)) >= 0;
    }
}
