package io.etcdoperator.operator.defrag;

import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.operator.logs.LogContext;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.MaxReconciliationInterval;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.retry.GradualRetry;
import java.util.concurrent.TimeUnit;

/** JOSDK glue for {@link DefragReconcile}. */
@GradualRetry(maxAttempts = Integer.MAX_VALUE, initialInterval = 2_000, intervalMultiplier = 2, maxInterval = 60_000)
@ControllerConfiguration(
        name = "etcddefrag",
        maxReconciliationInterval = @MaxReconciliationInterval(interval = 60, timeUnit = TimeUnit.SECONDS))
public class EtcdDefragReconciler implements Reconciler<EtcdDefrag> {

    private final DefragReconcile pass;

    public EtcdDefragReconciler(DefragReconcile pass) {
        this.pass = pass;
    }

    @Override
    public UpdateControl<EtcdDefrag> reconcile(EtcdDefrag resource, Context<EtcdDefrag> context) {
        var ref = resource.getSpec() == null ? null : resource.getSpec().getClusterRef();
        try (var logs = LogContext.of(resource.getMetadata().getNamespace(), ref == null ? null : ref.getName())
                .with("defrag", resource.getMetadata().getName())) {
            UpdateControl<EtcdDefrag> control = UpdateControl.noUpdate();
            return pass.reconcile(
                            resource.getMetadata().getNamespace(),
                            resource.getMetadata().getName())
                    .map(d -> control.rescheduleAfter(d))
                    .orElse(control);
        }
    }
}
