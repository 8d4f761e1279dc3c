package io.etcdoperator.snapshot;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A plain jetcd KV client for tests: writes and reads keys, and reports the cluster ID a response header carries. */
final class Keys implements AutoCloseable {

    private final Client client;

    Keys(URI endpoint) {
        this.client = Client.builder().endpoints(endpoint).build();
    }

    /** Writes {@code count} keys {@code <prefix>NNNNN} with values of {@code valueBytes} bytes, 64 puts in flight. */
    void fill(String prefix, int count, int valueBytes) {
        CompletableFuture<?>[] window = new CompletableFuture<?>[64];
        for (int i = 0; i < count; i++) {
            if (window[i % window.length] != null) {
                window[i % window.length].join();
            }
            window[i % window.length] = client.getKVClient().put(bytes(key(prefix, i)), bytes(value(i, valueBytes)));
        }
        for (CompletableFuture<?> f : window) {
            if (f != null) {
                f.join();
            }
        }
    }

    static String key(String prefix, int i) {
        return String.format("%s%05d", prefix, i);
    }

    static String value(int i, int size) {
        StringBuilder value = new StringBuilder(size).append("value-").append(i).append('-');
        while (value.length() < size) {
            value.append((char) ('a' + (value.length() * 31 + i) % 26));
        }
        return value.substring(0, Math.max(size, 0));
    }

    Map<String, String> read(String prefix) {
        try {
            var response = client.getKVClient()
                    .get(bytes(prefix), GetOption.builder().isPrefix(true).build())
                    .get(30, TimeUnit.SECONDS);
            Map<String, String> values = new TreeMap<>();
            for (KeyValue kv : response.getKvs()) {
                values.put(
                        kv.getKey().toString(StandardCharsets.UTF_8),
                        kv.getValue().toString(StandardCharsets.UTF_8));
            }
            return values;
        } catch (Exception e) {
            throw new AssertionError("read of " + prefix + " failed", e);
        }
    }

    long count(String prefix) {
        try {
            return client.getKVClient()
                    .get(
                            bytes(prefix),
                            GetOption.builder()
                                    .isPrefix(true)
                                    .withCountOnly(true)
                                    .build())
                    .get(30, TimeUnit.SECONDS)
                    .getCount();
        } catch (Exception e) {
            throw new AssertionError("count of " + prefix + " failed", e);
        }
    }

    /** The keyspace revision a response header carries. */
    long revision() {
        try {
            return client.getKVClient()
                    .get(
                            bytes("/"),
                            GetOption.builder()
                                    .isPrefix(true)
                                    .withCountOnly(true)
                                    .build())
                    .get(30, TimeUnit.SECONDS)
                    .getHeader()
                    .getRevision();
        } catch (Exception e) {
            throw new AssertionError("revision read failed", e);
        }
    }

    /** Watches every key from {@code revision}; completes with the first error or the first event batch's revision. */
    CompletableFuture<Object> watchFrom(long revision) {
        CompletableFuture<Object> first = new CompletableFuture<>();
        var watcher = client.getWatchClient()
                .watch(
                        bytes("/"),
                        io.etcd.jetcd.options.WatchOption.builder()
                                .isPrefix(true)
                                .withRevision(revision)
                                .build(),
                        io.etcd.jetcd.Watch.listener(
                                r -> first.complete(r.getHeader().getRevision()), first::complete));
        first.whenComplete((r, e) -> watcher.close());
        return first;
    }

    long clusterId() {
        try {
            return client.getClusterClient()
                    .listMember()
                    .get(10, TimeUnit.SECONDS)
                    .getHeader()
                    .getClusterId();
        } catch (Exception e) {
            throw new AssertionError("member list failed", e);
        }
    }

    @Override
    public void close() {
        client.close();
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }
}
