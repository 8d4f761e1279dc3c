package io.etcdoperator.operator.reads;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What passes read of objects no informer holds (Secrets, cert-manager Certificates), each with when it was read. A
 * read is fresh for its own period; reads older than the longest period are dropped, in a sweep at most once a period.
 */
public final class RecentReads<V> {

    private record Read<V>(V value, Instant at) {}

    private final Duration longest;
    private final Map<String, Read<V>> reads = new ConcurrentHashMap<>();
    private volatile Instant lastSweep = Instant.MIN;

    /** {@code longest}: no read is kept longer (the longest period any caller asks of {@link #fresh}). */
    public RecentReads(Duration longest) {
        this.longest = longest;
    }

    /** The value read under {@code key} if that read is no older than its {@code period} at {@code now}. */
    public Optional<V> fresh(String key, Instant now, Function<V, Duration> period) {
        Read<V> read = reads.get(key);
        return read == null || read.at().plus(period.apply(read.value())).isBefore(now)
                ? Optional.empty()
                : Optional.of(read.value());
    }

    public void put(String key, V value, Instant now) {
        reads.put(key, new Read<>(value, now));
        if (!lastSweep.plus(longest).isAfter(now)) {
            lastSweep = now;
            reads.values().removeIf(r -> r.at().plus(longest).isBefore(now));
        }
    }

    /** How many reads are kept. */
    public int size() {
        return reads.size();
    }
}
