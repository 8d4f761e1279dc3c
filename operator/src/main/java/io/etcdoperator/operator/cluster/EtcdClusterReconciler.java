package io.etcdoperator.operator.cluster;

import io.etcdoperator.operator.informer.LeanItemStore;
import io.javaoperatorsdk.operator.api.reconciler.MaxReconciliationInterval;
import io.javaoperatorsdk.operator.processing.retry.GradualRetry;
import java.util.concurrent.TimeUnit;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.fabric8.kubernetes.api.model.Service;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.Set;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.List;

/**
 * JOSDK glue for {@link ClusterReconcile}; EtcdMember changes (readiness, deletion) wake the owning cluster, and so
 * does an EtcdDefrag naming it (its planner runs the defrag).
 */
// A failing step keeps being retried (capped back-off) and every cluster is looked at once a minute anyway:
// JOSDK's default gives up after 5 attempts until the next event, which may never come.
@GradualRetry(maxAttempts = Integer.MAX_VALUE, initialInterval = 2_000, intervalMultiplier = 2, maxInterval = 60_000)
@ControllerConfiguration(name = "etcdcluster",
    maxReconciliationInterval = @MaxReconciliationInterval(interval = 60, timeUnit = TimeUnit.SECONDS))
public class EtcdClusterReconciler implements Reconciler<EtcdCluster> {

  private final ClusterReconcile pass;

  public EtcdClusterReconciler(ClusterReconcile pass) {
    this.pass = pass;
  }

  @Override
  public List<EventSource<?, EtcdCluster>> prepareEventSources(EventSourceContext<EtcdCluster> context) {
    var members = InformerEventSourceConfiguration.from(EtcdMember.class, EtcdCluster.class)
        .withItemStore(LeanItemStore.metadataOnly(EtcdMember::new)).build();
    var defrags = InformerEventSourceConfiguration.from(EtcdDefrag.class, EtcdCluster.class)
        .withSecondaryToPrimaryMapper((EtcdDefrag d) -> d.getSpec() == null || d.getSpec().getClusterRef() == null
            ? Set.of() : Set.of(new ResourceID(d.getSpec().getClusterRef().getName(), d.getMetadata().getNamespace())))
        .withItemStore(new LeanItemStore<>()).build();
    // the Services are read from this cache, and one deleted by hand wakes its cluster at once
    var services = new InformerEventSource<>(InformerEventSourceConfiguration.from(Service.class, EtcdCluster.class)
        .withLabelSelector(EtcdOperatorApi.LABEL_CLUSTER).withItemStore(new LeanItemStore<>()).build(), context);
    pass.readServicesFrom((namespace, name) -> services.get(new ResourceID(name, namespace)));
    return List.of(new InformerEventSource<>(members, context), new InformerEventSource<>(defrags, context),
        services);
  }

  @Override
  public UpdateControl<EtcdCluster> reconcile(EtcdCluster resource, Context<EtcdCluster> context) {
    var next = pass.reconcile(resource.getMetadata().getNamespace(), resource.getMetadata().getName());
    UpdateControl<EtcdCluster> control = UpdateControl.noUpdate();
    return next.map(d -> control.rescheduleAfter(d)).orElse(control);
  }
}
