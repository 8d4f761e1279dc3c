package io.etcdoperator.operator.snapshot;

import io.etcdoperator.api.v1alpha2.EtcdSnapshot;
import io.etcdoperator.operator.informer.LeanItemStore;
import io.etcdoperator.operator.logs.LogContext;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.MaxReconciliationInterval;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.retry.GradualRetry;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** JOSDK glue for {@link SnapshotReconcile}; changes of the owned Job wake the snapshot. */
@GradualRetry(maxAttempts = Integer.MAX_VALUE, initialInterval = 2_000, intervalMultiplier = 2, maxInterval = 60_000)
@ControllerConfiguration(
        name = "etcdsnapshot",
        maxReconciliationInterval = @MaxReconciliationInterval(interval = 60, timeUnit = TimeUnit.SECONDS))
public class EtcdSnapshotReconciler implements Reconciler<EtcdSnapshot> {

    private final SnapshotReconcile pass;

    public EtcdSnapshotReconciler(SnapshotReconcile pass) {
        this.pass = pass;
    }

    @Override
    public List<EventSource<?, EtcdSnapshot>> prepareEventSources(EventSourceContext<EtcdSnapshot> context) {
        var jobs = InformerEventSourceConfiguration.from(Job.class, EtcdSnapshot.class)
                .withLabelSelector(SnapshotJobs.LABEL_SNAPSHOT)
                .withItemStore(new LeanItemStore<>())
                .build();
        return List.of(new InformerEventSource<>(jobs, context));
    }

    @Override
    public UpdateControl<EtcdSnapshot> reconcile(EtcdSnapshot resource, Context<EtcdSnapshot> context) {
        var ref = resource.getSpec() == null ? null : resource.getSpec().getClusterRef();
        try (var logs = LogContext.of(resource.getMetadata().getNamespace(), ref == null ? null : ref.getName())
                .with("snapshot", resource.getMetadata().getName())) {
            UpdateControl<EtcdSnapshot> control = UpdateControl.noUpdate();
            return pass.reconcile(
                            resource.getMetadata().getNamespace(),
                            resource.getMetadata().getName())
                    .map(d -> control.rescheduleAfter(d))
                    .orElse(control);
        }
    }
}
