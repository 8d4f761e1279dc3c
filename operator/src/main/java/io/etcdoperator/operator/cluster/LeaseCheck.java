package io.etcdoperator.operator.cluster;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;

/**
 * Before each later write of a step that makes several, a replica reads the leader Lease: one paused past its Lease
 * (a long collection, a frozen node) must not finish a quorum recovery another replica has started over.
 * Without leader election it checks nothing. docs/operations.md "Two operators".
 */
public interface LeaseCheck {

    LeaseCheck NONE = () -> {};

    /** Throws {@link LeaseLost} unless this replica still holds an unexpired Lease. */
    void ensureHeld();

    /** This replica no longer holds the Lease: the step stops between its writes and the next leader resumes it. */
    final class LeaseLost extends RuntimeException {
        LeaseLost(String message) {
            super(message);
        }
    }

    static LeaseCheck of(KubernetesClient client, String namespace, String name, String identity, Clock clock) {
        return () -> {
            Lease lease = client.leases().inNamespace(namespace).withName(name).get();
            var spec = lease == null ? null : lease.getSpec();
            if (spec == null || !identity.equals(spec.getHolderIdentity()) || spec.getRenewTime() == null) {
                throw new LeaseLost("the leader Lease " + namespace + "/" + name + " is held by "
                        + (spec == null ? "nobody" : spec.getHolderIdentity()));
            }
            Duration valid =
                    Duration.ofSeconds(spec.getLeaseDurationSeconds() == null ? 15 : spec.getLeaseDurationSeconds());
            ZonedDateTime renewed = spec.getRenewTime();
            if (!renewed.toInstant().plus(valid).isAfter(clock.instant())) {
                throw new LeaseLost("the leader Lease " + namespace + "/" + name + " expired at "
                        + renewed.toInstant().plus(valid));
            }
        };
    }
}
