package io.etcdoperator.operator.snapshot;

import io.etcdoperator.operator.events.EventRecorder;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * core/v1 Events about snapshots and schedules. Their reasons are the snapshot's own (often the agent's failure
 * reason, such as BucketNotFound), which the cluster-oriented {@link EventRecorder} reasons do not cover. A failed
 * publish never fails a reconcile; messages carry no secrets (the agent never echoes them).
 */
public class SnapshotEvents {

  private static final Logger LOG = LoggerFactory.getLogger(SnapshotEvents.class);

  private final KubernetesClient client;
  private final String instance;
  private final Clock clock;

  public SnapshotEvents(KubernetesClient client, String instance, Clock clock) {
    this.client = client;
    this.instance = instance;
    this.clock = clock;
  }

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
        .withNewSource().withComponent(EventRecorder.COMPONENT).endSource()
        .withReportingComponent(EventRecorder.COMPONENT)
        .withReportingInstance(instance)
        .build();
    try {
      client.v1().events().inNamespace(meta.getNamespace()).resource(event).create();
    } catch (KubernetesClientException e) {
      LOG.atWarn().addKeyValue("reason", reason).addKeyValue("code", e.getCode()).log("could not publish event");
    }
  }
}
