package io.etcdoperator.etcd;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one connection learned about its endpoints lately: which answered last, which leads, and which were slow or
 * unreachable. A pooled connection lives across passes, so an endpoint that just cost a deadline is tried last for
 * {@link #SHUNNED_FOR} instead of first again. See docs/etcd-client.md.
 */
final class EndpointHealth {

    static final Duration SHUNNED_FOR = Duration.ofSeconds(30);

    private final List<URI> configured;
    private final Clock clock;
    private final Map<URI, Instant> failedAt = new ConcurrentHashMap<>();
    private volatile URI lastAnswered;
    private volatile URI leader;

    EndpointHealth(List<URI> configured, Clock clock) {
        this.configured = List.copyOf(configured);
        this.clock = clock;
    }

    /** The endpoint answered (any etcd answer, a refusal included): it is reachable now. */
    void answered(URI endpoint) {
        failedAt.remove(endpoint);
        lastAnswered = endpoint;
    }

    /** The endpoint did not answer in its time, or refused the connection. */
    void failed(URI endpoint) {
        failedAt.put(endpoint, clock.instant());
        if (endpoint.equals(lastAnswered)) {
            lastAnswered = null;
        }
    }

    /** The endpoint's own Status said it leads. */
    void leads(URI endpoint) {
        leader = endpoint;
    }

    /** The endpoint's own Status said it does not lead (any more). */
    void follows(URI endpoint) {
        if (endpoint.equals(leader)) {
            leader = null;
        }
    }

    Optional<URI> leader() {
        return Optional.ofNullable(leader).filter(l -> !shunned(l, clock.instant()));
    }

    boolean shunned(URI endpoint) {
        return shunned(endpoint, clock.instant());
    }

    /**
     * The order to try the configured endpoints in: the one that answered last (so a read after a change sees it), then
     * the leader, then the others as configured; endpoints that failed within {@link #SHUNNED_FOR} come last, the one
     * that failed longest ago first among them. Every endpoint stays in the list: shunned is "last", never "never".
     */
    List<URI> order() {
        Instant now = clock.instant();
        List<URI> preferred = new ArrayList<>();
        List<URI> shunned = new ArrayList<>();
        for (URI candidate : candidates()) {
            if (preferred.contains(candidate) || shunned.contains(candidate)) {
                continue;
            }
            (shunned(candidate, now) ? shunned : preferred).add(candidate);
        }
        shunned.sort(Comparator.comparing(e -> failedAt.getOrDefault(e, Instant.EPOCH)));
        preferred.addAll(shunned);
        return preferred;
    }

    private List<URI> candidates() {
        List<URI> candidates = new ArrayList<>();
        Optional.ofNullable(lastAnswered).filter(configured::contains).ifPresent(candidates::add);
        Optional.ofNullable(leader).filter(configured::contains).ifPresent(candidates::add);
        candidates.addAll(configured);
        return candidates;
    }

    private boolean shunned(URI endpoint, Instant now) {
        Instant failed = failedAt.get(endpoint);
        return failed != null && failed.plus(SHUNNED_FOR).isAfter(now);
    }
}
