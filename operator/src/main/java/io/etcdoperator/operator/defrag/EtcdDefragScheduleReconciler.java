package io.etcdoperator.operator.defrag;

import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.api.v1alpha2.EtcdDefragSchedule;
import io.etcdoperator.operator.informer.LeanItemStore;
import io.etcdoperator.operator.logs.LogContext;
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

/** JOSDK glue for {@link DefragScheduleReconcile}; its own EtcdDefrags wake it when they finish. */
@GradualRetry(maxAttempts = Integer.MAX_VALUE, initialInterval = 2_000, intervalMultiplier = 2, maxInterval = 60_000)
@ControllerConfiguration(name = "etcddefragschedule")
public class EtcdDefragScheduleReconciler implements Reconciler<EtcdDefragSchedule> {

    private final DefragScheduleReconcile pass;

    public EtcdDefragScheduleReconciler(DefragScheduleReconcile pass) {
        this.pass = pass;
    }

    @Override
    public List<EventSource<?, EtcdDefragSchedule>> prepareEventSources(
            EventSourceContext<EtcdDefragSchedule> context) {
        var runs = InformerEventSourceConfiguration.from(EtcdDefrag.class, EtcdDefragSchedule.class)
                .withLabelSelector(EtcdDefragSchedule.LABEL_SCHEDULE)
                .withItemStore(new LeanItemStore<>())
                .build();
        return List.of(new InformerEventSource<>(runs, context));
    }

    @Override
    public UpdateControl<EtcdDefragSchedule> reconcile(
            EtcdDefragSchedule resource, Context<EtcdDefragSchedule> context) {
        var ref = resource.getSpec() == null ? null : resource.getSpec().getClusterRef();
        try (var logs = LogContext.of(resource.getMetadata().getNamespace(), ref == null ? null : ref.getName())
                .with("schedule", resource.getMetadata().getName())) {
            UpdateControl<EtcdDefragSchedule> control = UpdateControl.noUpdate();
            return pass.reconcile(
                            resource.getMetadata().getNamespace(),
                            resource.getMetadata().getName())
                    .map(d -> control.rescheduleAfter(d))
                    .orElse(control);
        }
    }
}
