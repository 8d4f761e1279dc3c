package io.etcdoperator.operator.member;

import io.etcdoperator.operator.logs.LogContext;
import io.etcdoperator.operator.informer.LeanItemStore;
import io.javaoperatorsdk.operator.api.reconciler.MaxReconciliationInterval;
import io.javaoperatorsdk.operator.processing.retry.GradualRetry;
import java.util.concurrent.TimeUnit;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;

/**
 * JOSDK glue for {@link MemberReconcile}. Not generation-aware: status.isVoter (written by the cluster controller)
 * must reach the Pod's role label, and Pod/PVC changes must refresh status.
 */
@GradualRetry(maxAttempts = Integer.MAX_VALUE, initialInterval = 2_000, intervalMultiplier = 2, maxInterval = 60_000)
@ControllerConfiguration(name = "etcdmember", finalizerName = EtcdOperatorApi.MEMBER_FINALIZER,
    generationAwareEventProcessing = false,
    maxReconciliationInterval = @MaxReconciliationInterval(interval = 5, timeUnit = TimeUnit.MINUTES))
public class EtcdMemberReconciler implements Reconciler<EtcdMember>, Cleaner<EtcdMember> {

  private static final Duration CONFLICT_RETRY = Duration.ofMillis(100);

  private final MemberReconcile pass;

  public EtcdMemberReconciler(MemberReconcile pass) {
    this.pass = pass;
  }

  @Override
  public List<EventSource<?, EtcdMember>> prepareEventSources(EventSourceContext<EtcdMember> context) {
    var pods = InformerEventSourceConfiguration.from(Pod.class, EtcdMember.class)
        .withLabelSelector(EtcdOperatorApi.LABEL_CLUSTER).withItemStore(LeanItemStore.metadataOnly(Pod::new)).build();
    var pvcs = InformerEventSourceConfiguration.from(PersistentVolumeClaim.class, EtcdMember.class)
        .withLabelSelector(EtcdOperatorApi.LABEL_CLUSTER)
        .withItemStore(LeanItemStore.metadataOnly(PersistentVolumeClaim::new)).build();
    return List.of(new InformerEventSource<>(pods, context), new InformerEventSource<>(pvcs, context));
  }

  @Override
  public UpdateControl<EtcdMember> reconcile(EtcdMember resource, Context<EtcdMember> context) {
    try (var logs = logContext(resource)) {
      UpdateControl<EtcdMember> control = UpdateControl.noUpdate();
      EtcdMember fresh = context.getClient().resource(resource).get(); // the cache may lag our own status writes
      if (fresh == null || fresh.getMetadata().getDeletionTimestamp() != null) {
        return control;
      }
      try {
        return pass.reconcile(fresh).map(d -> control.rescheduleAfter(d)).orElse(control);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
        // the cluster controller wrote isVoter or the initial cluster meanwhile: read again now, not after a back-off
        return control.rescheduleAfter(CONFLICT_RETRY);
      }
    }
  }

  @Override
  public DeleteControl cleanup(EtcdMember resource, Context<EtcdMember> context) {
    try (var logs = logContext(resource)) {
      MemberReconcile.Cleanup result = pass.cleanup(resource);
      return result.done() ? DeleteControl.defaultDelete() : DeleteControl.noFinalizerRemoval().rescheduleAfter(5000);
    }
  }

  private static LogContext logContext(EtcdMember member) {
    return LogContext.of(member.getMetadata().getNamespace(),
            member.getSpec() == null ? null : member.getSpec().getClusterName())
        .with("member", member.getMetadata().getName());
  }
}
