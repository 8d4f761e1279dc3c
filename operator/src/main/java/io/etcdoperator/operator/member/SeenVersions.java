package io.etcdoperator.operator.member;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Read-your-own-writes for the member controller's cache passes: the resourceVersion this controller's last status
 * write of each EtcdMember made. A cache holding an older version may lag that write, and the pass goes to the API
 * server; once the cache holds it or a later one, the entry goes. Versions are compared as the integers kube-apiserver
 * makes of etcd's revisions (comparable by KEP-5504); one that is not an integer counts only when equal.
 */
final class SeenVersions {

    private final Map<ResourceID, String> written = new ConcurrentHashMap<>();

    /** A status write of ours left the member at {@code resourceVersion}. */
    void wrote(ResourceID member, String resourceVersion) {
        written.put(member, resourceVersion);
    }

    /** Whether a pass may start on the cache holding the member at {@code cachedVersion}. */
    boolean caughtUp(ResourceID member, String cachedVersion) {
        String expected = written.get(member);
        if (expected == null) {
            return true;
        }
        boolean seen = expected.equals(cachedVersion)
                || number(cachedVersion)
                        .flatMap(cached -> number(expected).map(ours -> cached >= ours))
                        .orElse(false);
        if (seen) {
            written.remove(member, expected);
        }
        return seen;
    }

    void forget(ResourceID member) {
        written.remove(member);
    }

    private static Optional<Long> number(String resourceVersion) {
        try {
            return resourceVersion == null ? Optional.empty() : Optional.of(Long.parseUnsignedLong(resourceVersion));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
