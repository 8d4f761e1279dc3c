package io.etcdoperator.operator.events;

import io.etcdoperator.operator.reason.Reason;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes core/v1 Events (served by every Kubernetes version, shown by kubectl describe). A failed publish is
 * logged and never fails a reconcile. Messages must not carry secrets.
 */
public class EventRecorder {

    private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
    public static final String COMPONENT = "etcd-operator";

    private final KubernetesClient client;
    private final String instance;
    private final Clock clock;

    public EventRecorder(KubernetesClient client, String instance, Clock clock) {
        this.client = client;
        this.instance = instance;
        this.clock = clock;
    }

    public void normal(HasMetadata about, Reason reason, String message) {
        publish(about, "Normal", reason.reason(), message);
    }

    public void warning(HasMetadata about, Reason reason, String message) {
        publish(about, "Warning", reason.reason(), message);
    }

    /** For reasons outside the planner's vocabulary, such as a snapshot agent's failure reason (BucketNotFound). */
    public void normal(HasMetadata about, String reason, String message) {
        publish(about, "Normal", reason, message);
    }

    public void warning(HasMetadata about, String reason, String message) {
        publish(about, "Warning", reason, message);
    }

    private void publish(HasMetadata about, String type, String reason, String message) {
        String now = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
        var meta = about.getMetadata();
        var event = new EventBuilder()
                .withNewMetadata()
                .withName(meta.getName() + "." + Long.toHexString(System.nanoTime()))
                .withNamespace(meta.getNamespace())
                .endMetadata()
                .withNewInvolvedObject()
                .withApiVersion(about.getApiVersion())
                .withKind(about.getKind())
                .withName(meta.getName())
                .withNamespace(meta.getNamespace())
                .withUid(meta.getUid())
                .endInvolvedObject()
                .withType(type)
                .withReason(reason)
                .withMessage(message)
                .withFirstTimestamp(now)
                .withLastTimestamp(now)
                .withCount(1)
                .withNewSource()
                .withComponent(COMPONENT)
                .endSource()
                .withReportingComponent(COMPONENT)
                .withReportingInstance(instance)
                .build();
        try {
            client.v1()
                    .events()
                    .inNamespace(meta.getNamespace())
                    .resource(event)
                    .create();
        } catch (KubernetesClientException e) {
            if (NamespaceTermination.refused(e)) {
                return; // the namespace and everything in it is going
            }
            LOG.atWarn()
                    .addKeyValue("reason", reason)
                    .addKeyValue("code", e.getCode())
                    .log("could not publish event");
        }
    }
}
