package io.etcdoperator.operator.informer;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * Deep copies of the operator's own kinds (its custom resources and their statuses) that a pass may change. Through
 * Jackson's token buffer, not a JSON text, and a mapper that does not intern, so most strings (immutable) stay the
 * cache's own; faster in a loop, no gain the fleet bench could see beyond its noise (docs/benchmarks.md).
 */
public final class ObjectCopies {

    private static final KubernetesSerialization PLAIN = new KubernetesSerialization();

    private ObjectCopies() {}

    /** A copy that shares no map, list or nested object with {@code object}; null for null. */
    @SuppressWarnings("unchecked")
    public static <T> T of(T object) {
        return object == null ? null : (T) PLAIN.convertValue(object, object.getClass());
    }
}
