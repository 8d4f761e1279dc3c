package io.etcdoperator.pki.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A client that writes numbered keys one after another, the way an application would: each write is retried until
 * etcd acknowledges it or the client's own timeout passes, which counts as a failed write. Its TLS material can be
 * swapped while it runs (clients must trust a new CA before members present leaves from it).
 */
final class ContinuousWriter implements AutoCloseable {

    static final String PREFIX = "rotation/";
    private static final Duration ATTEMPT = Duration.ofSeconds(2);
    private static final Duration GIVE_UP_AFTER = Duration.ofSeconds(20);

    private final List<URI> endpoints;
    private final AtomicReference<Client> client = new AtomicReference<>();
    private final Map<String, String> acknowledged = new ConcurrentHashMap<>();
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    ContinuousWriter(List<URI> endpoints, ClientMaterial material) {
        this.endpoints = List.copyOf(endpoints);
        client.set(newClient(material));
        this.thread = Thread.ofPlatform().name("continuous-writer").start(this::writeUntilStopped);
    }

    /** New TLS material; writes in flight on the old client fail and are retried on the new one. */
    void use(ClientMaterial material) {
        Client previous = client.getAndSet(newClient(material));
        previous.close();
    }

    Map<String, String> acknowledged() {
        return Map.copyOf(acknowledged);
    }

    long retries() {
        return retries.get();
    }

    long failed() {
        return failed.get();
    }

    /** Everything under the prefix, read with the writer's current material. */
    Map<String, String> readBack() throws Exception {
        var response = client.get()
                .getKVClient()
                .get(bytes(PREFIX), GetOption.builder().isPrefix(true).build())
                .get(10, TimeUnit.SECONDS);
        Map<String, String> values = new TreeMap<>();
        for (KeyValue kv : response.getKvs()) {
            values.put(kv.getKey().toString(UTF_8), kv.getValue().toString(UTF_8));
        }
        return values;
    }

    void stop() throws InterruptedException {
        running = false;
        thread.join(GIVE_UP_AFTER.plusSeconds(5).toMillis());
    }

    @Override
    public void close() throws InterruptedException {
        stop();
        client.get().close();
    }

    private void writeUntilStopped() {
        for (long n = 0; running; n++) {
            String key = PREFIX + String.format("%08d", n);
            String value = "value-" + n;
            if (put(key, value)) {
                acknowledged.put(key, value);
            } else {
                failed.incrementAndGet();
            }
        }
    }

    private boolean put(String key, String value) {
        long deadline = System.nanoTime() + GIVE_UP_AFTER.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                client.get().getKVClient().put(bytes(key), bytes(value)).get(ATTEMPT.toMillis(), TimeUnit.MILLISECONDS);
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (Exception e) {
                retries.incrementAndGet(); // a put of the same key and value is idempotent, so retrying is safe
            }
        }
        return false;
    }

    private Client newClient(ClientMaterial material) {
        return Client.builder()
                .endpoints(endpoints.toArray(URI[]::new))
                .sslContext(material.nettyContext())
                .connectTimeout(ATTEMPT)
                .build();
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, UTF_8);
    }
}
