package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.events.NamespaceTermination;
import io.etcdoperator.operator.informer.LeanItemStore;
import io.etcdoperator.operator.logs.LogContext;
import io.etcdoperator.operator.reads.InformerReads;
import io.etcdoperator.operator.resources.MemberPodStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.MaxReconciliationInterval;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.retry.GradualRetry;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JOSDK glue for {@link ClusterReconcile}; EtcdMember changes (readiness, deletion) wake the owning cluster, and so
 * do an EtcdDefrag naming it (its planner runs the defrag), a member Pod whose etcd stopped, and its Services and PDB.
 */
// A failing step keeps being retried (capped back-off) and every cluster is looked at once a minute anyway:
// JOSDK's default gives up after 5 attempts until the next event, which may never come.
@GradualRetry(maxAttempts = Integer.MAX_VALUE, initialInterval = 2_000, intervalMultiplier = 2, maxInterval = 60_000)
@ControllerConfiguration(
        name = "etcdcluster",
        maxReconciliationInterval = @MaxReconciliationInterval(interval = 60, timeUnit = TimeUnit.SECONDS))
public class EtcdClusterReconciler implements Reconciler<EtcdCluster> {

    private static final Logger LOG = LoggerFactory.getLogger(EtcdClusterReconciler.class);

    private final ClusterReconcile pass;
    private final DegradedStatus degraded;

    public EtcdClusterReconciler(ClusterReconcile pass, KubernetesClient client, EventRecorder events, Clock clock) {
        this.pass = pass;
        this.degraded = new DegradedStatus(client, events, clock);
    }

    @Override
    public List<EventSource<?, EtcdCluster>> prepareEventSources(EventSourceContext<EtcdCluster> context) {
        // metadata: a settled cluster's pass reads the member controller's objects, of the versions seen here
        var members = InformerEventSourceConfiguration.from(EtcdMember.class, EtcdCluster.class)
                .withItemStore(LeanItemStore.metadataOnly(EtcdMember::new))
                .build();
        var defrags = InformerEventSourceConfiguration.from(EtcdDefrag.class, EtcdCluster.class)
                .withSecondaryToPrimaryMapper(
                        (EtcdDefrag d) -> d.getSpec() == null || d.getSpec().getClusterRef() == null
                                ? Set.of()
                                : Set.of(new ResourceID(
                                        d.getSpec().getClusterRef().getName(),
                                        d.getMetadata().getNamespace())))
                .withItemStore(new LeanItemStore<>())
                .build();
        // a member whose etcd container stopped wakes its cluster at once: the planner reads why from the Pod
        // (DataLost,
        // a crash loop); a Pod that only restarts leaves its EtcdMember's status as it was, so that would not wake it
        var pods = InformerEventSourceConfiguration.from(Pod.class, EtcdCluster.class)
                .withLabelSelector(EtcdOperatorApi.LABEL_CLUSTER)
                .withSecondaryToPrimaryMapper((Pod p) -> clusterOf(p)
                        .map(c -> Set.of(new ResourceID(c, p.getMetadata().getNamespace())))
                        .orElse(Set.of()))
                .withOnUpdateFilter((Pod next, Pod previous) -> !MemberPodStatus.running(next))
                .withItemStore(LeanItemStore.memberPods())
                .build();
        // cache only: a claim changes with its member (the member controller watches them), never on its own
        var volumes = InformerEventSourceConfiguration.from(PersistentVolumeClaim.class, EtcdCluster.class)
                .withLabelSelector(EtcdOperatorApi.LABEL_CLUSTER)
                .withSecondaryToPrimaryMapper((PersistentVolumeClaim p) -> Set.of())
                .withItemStore(new LeanItemStore<>())
                .build();
        // Services and the PDB are read from these caches, and one deleted by hand wakes its cluster at once
        var services = labelled(Service.class, context);
        pass.objects().readServicesFrom((namespace, name) -> services.get(new ResourceID(name, namespace)));
        var budgets = labelled(pass.objects().disruptionBudgetType(), context);
        pass.objects()
                .readDisruptionBudgetsFrom((namespace, name) ->
                        budgets.get(new ResourceID(name, namespace)).map(HasMetadata.class::cast));
        var memberSource = new InformerEventSource<>(members, context);
        var podSource = new InformerEventSource<>(pods, context);
        var volumeSource = new InformerEventSource<>(volumes, context);
        var defragSource = new InformerEventSource<>(defrags, context);
        memberSource.addIndexers(InformerReads.clusterIndex());
        podSource.addIndexers(InformerReads.clusterIndex());
        volumeSource.addIndexers(InformerReads.clusterIndex());
        pass.readFrom(new InformerReads(
                context.getPrimaryCache(), memberSource, pass::memberObjects, podSource, volumeSource, defragSource));
        return List.of(memberSource, defragSource, podSource, volumeSource, services, budgets);
    }

    /** A Pod whose cluster label was edited away leaves the selector without one: its member restores the label. */
    private static Optional<String> clusterOf(Pod pod) {
        return Optional.ofNullable(pod.getMetadata().getLabels())
                .map(labels -> labels.get(EtcdOperatorApi.LABEL_CLUSTER));
    }

    private static <R extends HasMetadata> InformerEventSource<R, EtcdCluster> labelled(
            Class<R> type, EventSourceContext<EtcdCluster> context) {
        return new InformerEventSource<>(
                InformerEventSourceConfiguration.from(type, EtcdCluster.class)
                        .withLabelSelector(EtcdOperatorApi.LABEL_CLUSTER)
                        .withItemStore(new LeanItemStore<>())
                        .build(),
                context);
    }

    @Override
    public UpdateControl<EtcdCluster> reconcile(EtcdCluster resource, Context<EtcdCluster> context) {
        // the name alone: the object is the cache's own (PrimaryCopies), the pass reads its copy
        String namespace = resource.getMetadata().getNamespace();
        String name = resource.getMetadata().getName();
        try (var logs = LogContext.of(namespace, name)) {
            UpdateControl<EtcdCluster> control = UpdateControl.noUpdate();
            try {
                return pass.reconcile(namespace, name)
                        .map(d -> control.rescheduleAfter(d))
                        .orElse(control);
            } catch (RuntimeException e) {
                if (!NamespaceTermination.refused(e)) {
                    throw e;
                }
                LOG.atInfo().log("namespace is being deleted, and the cluster with it: no more writes");
                return control;
            }
        }
    }

    /** A pass that throws says so in Degraded=True/ReconcileFailed; JOSDK still retries it with back-off. */
    @Override
    public ErrorStatusUpdateControl<EtcdCluster> updateErrorStatus(
            EtcdCluster resource, Context<EtcdCluster> context, Exception e) {
        try (var logs = LogContext.of(
                resource.getMetadata().getNamespace(), resource.getMetadata().getName())) {
            degraded.failed(
                    resource.getMetadata().getNamespace(),
                    resource.getMetadata().getName(),
                    e);
        }
        return ErrorStatusUpdateControl.noStatusUpdate();
    }
}
