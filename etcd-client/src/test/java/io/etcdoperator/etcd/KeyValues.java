package io.etcdoperator.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** A plain jetcd KV client for tests, independent of the port under test. */
final class KeyValues implements AutoCloseable {

    private final Client client;

    KeyValues(List<URI> endpoints) {
        this.client = Client.builder().endpoints(endpoints.toArray(URI[]::new)).build();
    }

    void put(String key, String value) {
        try {
            client.getKVClient().put(bytes(key), bytes(value)).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("put " + key + " failed", e);
        }
    }

    /** Puts and returns etcd's refusal, if any, instead of failing (for writes expected to be refused). */
    Optional<Throwable> tryPut(String key, String value) {
        try {
            client.getKVClient().put(bytes(key), bytes(value)).get(10, TimeUnit.SECONDS);
            return Optional.empty();
        } catch (ExecutionException e) {
            return Optional.of(e.getCause());
        } catch (Exception e) {
            throw new AssertionError("put " + key + " did not finish", e);
        }
    }

    void delete(String prefix) {
        try {
            client.getKVClient()
                    .delete(
                            bytes(prefix),
                            io.etcd.jetcd.options.DeleteOption.builder()
                                    .isPrefix(true)
                                    .build())
                    .get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("delete " + prefix + " failed", e);
        }
    }

    Map<String, String> readPrefix(String prefix) {
        try {
            var response = client.getKVClient()
                    .get(bytes(prefix), GetOption.builder().isPrefix(true).build())
                    .get(10, TimeUnit.SECONDS);
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

    @Override
    public void close() {
        client.close();
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }
}
