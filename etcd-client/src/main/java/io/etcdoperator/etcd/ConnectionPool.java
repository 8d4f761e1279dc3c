package io.etcdoperator.etcd;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One open {@link EtcdAdmin} per key (a cluster), reused across passes while it would be opened the same way: new
 * endpoints, TLS material, credentials or timeout reopen it. Entries unused for {@code idle} are closed, so a deleted
 * cluster's connection does not outlive it. Callers never close what they lease; they {@link #discard} it on failure.
 */
public final class ConnectionPool implements AutoCloseable {

    private record Entry(String fingerprint, EtcdAdmin admin, Instant lastUsed) {}

    private final EtcdAdmin.Factory factory;
    private final Duration idle;
    private final Clock clock;
    private final Map<String, Entry> open = new ConcurrentHashMap<>();
    private volatile Instant lastSweep;

    public ConnectionPool(EtcdAdmin.Factory factory, Duration idle, Clock clock) {
        this.factory = factory;
        this.idle = idle;
        this.clock = clock;
        this.lastSweep = clock.instant();
    }

    /** The pooled admin for {@code key}, opened now if there is none or it was opened with another connection. */
    public EtcdAdmin lease(String key, EtcdConnection connection) {
        Instant now = clock.instant();
        sweep(now);
        String fingerprint = fingerprint(connection);
        Entry entry = open.compute(key, (k, held) -> {
            if (held != null && held.fingerprint().equals(fingerprint)) {
                return new Entry(fingerprint, held.admin(), now);
            }
            if (held != null) {
                held.admin().close();
            }
            return new Entry(fingerprint, factory.open(connection), now);
        });
        return entry.admin();
    }

    /** Closes and forgets the admin of {@code key}: after a failed call, or when the cluster is gone. */
    public void discard(String key) {
        Entry gone = open.remove(key);
        if (gone != null) {
            gone.admin().close();
        }
    }

    public int size() {
        return open.size();
    }

    @Override
    public void close() {
        open.keySet().forEach(this::discard);
    }

    private void sweep(Instant now) {
        if (lastSweep.plus(idle.dividedBy(4)).isAfter(now)) {
            return;
        }
        lastSweep = now;
        open.forEach((key, entry) -> {
            if (entry.lastUsed().plus(idle).isBefore(now) && open.remove(key, entry)) {
                entry.admin().close();
            }
        });
    }

    /** A digest, so that neither the key nor the password is kept in a comparable string. */
    static String fingerprint(EtcdConnection c) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            c.endpoints().forEach(e -> update(digest, e.toString().getBytes(StandardCharsets.UTF_8)));
            c.tls().ifPresent(t -> {
                update(digest, t.caPem());
                update(digest, t.certPem());
                update(digest, t.keyPem());
            });
            c.credentials().ifPresent(cr -> {
                update(digest, cr.user().getBytes(StandardCharsets.UTF_8));
                update(digest, cr.password().getBytes(StandardCharsets.UTF_8));
            });
            update(digest, c.timeout().toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static void update(MessageDigest digest, byte[] bytes) {
        if (bytes == null) {
            digest.update((byte) 0);
            return;
        }
        digest.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
        digest.update(bytes);
    }
}
