package io.etcdoperator.operator.snapshot;

import io.etcdoperator.api.v1alpha2.EtcdSnapshot;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotSchedule;
import io.etcdoperator.operator.informer.LeanItemStore;
import io.etcdoperator.operator.logs.LogContext;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.retry.GradualRetry;
import java.util.List;

/**
 * JOSDK glue for {@link ScheduleReconcile}. No CronJob: each pass asks to be rescheduled for the next firing, and the
 * schedule's own snapshots and prune Jobs wake it when they finish.
 */
@GradualRetry(maxAttempts = Integer.MAX_VALUE, initialInterval = 2_000, intervalMultiplier = 2, maxInterval = 60_000)
@ControllerConfiguration(name = "etcdsnapshotschedule")
public class EtcdSnapshotScheduleReconciler implements Reconciler<EtcdSnapshotSchedule> {

    private final ScheduleReconcile pass;

    public EtcdSnapshotScheduleReconciler(ScheduleReconcile pass) {
        this.pass = pass;
    }

    @Override
    public List<EventSource<?, EtcdSnapshotSchedule>> prepareEventSources(
            EventSourceContext<EtcdSnapshotSchedule> context) {
        var snapshots = InformerEventSourceConfiguration.from(EtcdSnapshot.class, EtcdSnapshotSchedule.class)
                .withLabelSelector(EtcdSnapshotSchedule.LABEL_SCHEDULE)
                .withItemStore(new LeanItemStore<>())
                .build();
        var jobs = InformerEventSourceConfiguration.from(Job.class, EtcdSnapshotSchedule.class)
                .withLabelSelector(SnapshotJobs.LABEL_SNAPSHOT)
                .withItemStore(new LeanItemStore<>())
                .build();
        return List.of(new InformerEventSource<>(snapshots, context), new InformerEventSource<>(jobs, context));
    }

    @Override
    public UpdateControl<EtcdSnapshotSchedule> reconcile(
            EtcdSnapshotSchedule resource, Context<EtcdSnapshotSchedule> context) {
        var ref = resource.getSpec() == null ? null : resource.getSpec().getClusterRef();
        try (var logs = LogContext.of(resource.getMetadata().getNamespace(), ref == null ? null : ref.getName())
                .with("schedule", resource.getMetadata().getName())) {
            UpdateControl<EtcdSnapshotSchedule> control = UpdateControl.noUpdate();
            return pass.reconcile(
                            resource.getMetadata().getNamespace(),
                            resource.getMetadata().getName())
                    .map(d -> control.rescheduleAfter(d))
                    .orElse(control);
        }
    }
}
