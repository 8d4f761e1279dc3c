package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterStatus;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Degraded=True with a reason, for a pass that threw: written to the stored cluster, with one warning event per new
 * message. (A refused name is the planner's: {@code ClusterPlanner.admit}.)
 */
final class DegradedStatus {

    private static final Logger LOG = LoggerFactory.getLogger(DegradedStatus.class);
    private static final int MESSAGE_LIMIT = 512;

    private final KubernetesClient client;
    private final EventRecorder events;
    private final Clock clock;

    DegradedStatus(KubernetesClient client, EventRecorder events, Clock clock) {
        this.client = client;
        this.events = events;
        this.clock = clock;
    }

    /** A pass threw: members may well be serving, so only Degraded says so. */
    void failed(String namespace, String name, Exception e) {
        report(namespace, name, Reason.RECONCILE_FAILED, describe(e));
    }

    /**
     * The exception's type and the first line of its message, capped: enough to act on, short of request bodies.
     * Messages come from the client and the planner, which never put Secret data in them.
     */
    static String describe(Throwable e) {
        String message =
                e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
        String text = "pass failed: " + e.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
        return text.length() <= MESSAGE_LIMIT ? text : text.substring(0, MESSAGE_LIMIT - 3) + "...";
    }

    private void report(String namespace, String name, Reason reason, String message) {
        EtcdCluster cluster = client.resources(EtcdCluster.class)
                .inNamespace(namespace)
                .withName(name)
                .get();
        if (cluster == null || cluster.getMetadata().getDeletionTimestamp() != null) {
            return;
        }
        EtcdClusterStatus status = cluster.getStatus() == null ? new EtcdClusterStatus() : cluster.getStatus();
        boolean already = Conditions.find(status.getConditions(), Conditions.DEGRADED)
                .map(c -> "True".equals(c.getStatus())
                        && reason.reason().equals(c.getReason())
                        && Objects.equals(message, c.getMessage()))
                .orElse(false);
        if (already) {
            return;
        }
        events.warning(cluster, reason, message);
        LOG.atWarn()
                .addKeyValue("cluster", name)
                .addKeyValue("reason", reason.reason())
                .addKeyValue("detail", message)
                .log("cluster degraded");
        Instant now = clock.instant();
        Long generation = cluster.getMetadata().getGeneration();
        status.setConditions(Conditions.set(
                status.getConditions(), Conditions.DEGRADED, true, reason.reason(), message, generation, now));
        cluster.setStatus(status);
        try {
            client.resources(EtcdCluster.class)
                    .inNamespace(namespace)
                    .resource(cluster)
                    .updateStatus();
        } catch (KubernetesClientException e) {
            // a concurrent write (409) or a server that fails too: the next pass or retry reports again
            LOG.atWarn()
                    .addKeyValue("cluster", name)
                    .addKeyValue("code", e.getCode())
                    .log("degraded status not written");
        }
    }
}
