package io.etcdoperator.operator.member;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.events.NamespaceTermination;
import io.etcdoperator.operator.informer.LeanItemStore;
import io.etcdoperator.operator.informer.ObjectCopies;
import io.etcdoperator.operator.logs.LogContext;
import io.etcdoperator.operator.reads.CachePass;
import io.etcdoperator.operator.reads.InformerReads;
import io.etcdoperator.operator.reads.KubeReads;
import io.etcdoperator.operator.resources.Names;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.MaxReconciliationInterval;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.retry.GradualRetry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JOSDK glue for {@link MemberReconcile}. Not generation-aware: status.isVoter (written by the cluster controller)
 * must reach the Pod's role label, and Pod/PVC changes must refresh status.
 */
@GradualRetry(maxAttempts = Integer.MAX_VALUE, initialInterval = 2_000, intervalMultiplier = 2, maxInterval = 60_000)
@ControllerConfiguration(
        name = "etcdmember",
        finalizerName = EtcdOperatorApi.MEMBER_FINALIZER,
        generationAwareEventProcessing = false,
        maxReconciliationInterval = @MaxReconciliationInterval(interval = 5, timeUnit = TimeUnit.MINUTES))
public class EtcdMemberReconciler implements Reconciler<EtcdMember>, Cleaner<EtcdMember> {

    private static final Logger LOG = LoggerFactory.getLogger(EtcdMemberReconciler.class);
    private static final Duration CONFLICT_RETRY = Duration.ofMillis(100);

    private final MemberReconcile pass;
    private final Supplier<Optional<KubeReads>> caches;
    private final CachePass cachePass;
    /** Members whose last pass on the API server ended steady: their next pass may run on the caches. */
    private final Set<ResourceID> settled = ConcurrentHashMap.newKeySet();

    private final Consumer<IndexerResourceCache<EtcdMember>> shareMembers;

    public EtcdMemberReconciler(MemberReconcile pass) {
        this(pass, Optional::empty, cache -> {}, CachePass.OFF);
    }

    /**
     * {@code caches}: the cluster controller's (one cache of Pods and claims serves both controllers); this controller's
     * cache of whole EtcdMembers goes to {@code shareMembers} for the cluster controller's cache passes.
     */
    public EtcdMemberReconciler(
            MemberReconcile pass,
            Supplier<Optional<KubeReads>> caches,
            Consumer<IndexerResourceCache<EtcdMember>> shareMembers,
            CachePass cachePass) {
        this.pass = pass;
        this.caches = caches;
        this.shareMembers = shareMembers;
        this.cachePass = cachePass;
    }

    @Override
    public List<EventSource<?, EtcdMember>> prepareEventSources(EventSourceContext<EtcdMember> context) {
        context.getPrimaryCache().addIndexers(InformerReads.clusterIndex());
        shareMembers.accept(context.getPrimaryCache());
        var pods = InformerEventSourceConfiguration.from(Pod.class, EtcdMember.class)
                .withLabelSelector(EtcdOperatorApi.LABEL_CLUSTER)
                .withItemStore(LeanItemStore.metadataOnly(Pod::new))
                .build();
        var pvcs = InformerEventSourceConfiguration.from(PersistentVolumeClaim.class, EtcdMember.class)
                .withLabelSelector(EtcdOperatorApi.LABEL_CLUSTER)
                .withItemStore(LeanItemStore.metadataOnly(PersistentVolumeClaim::new))
                .build();
        return List.of(new InformerEventSource<>(pods, context), new InformerEventSource<>(pvcs, context));
    }

    @Override
    public UpdateControl<EtcdMember> reconcile(EtcdMember resource, Context<EtcdMember> context) {
        try (var logs = logContext(resource)) {
            UpdateControl<EtcdMember> control = UpdateControl.noUpdate();
            ResourceID id = ResourceID.fromResource(resource);
            Optional<KubeReads> cached = caches.get()
                    .filter(c -> cachePass.enabled() && settled.remove(id) && sameVersions(resource, context, c));
            if (cached.isPresent()) {
                EtcdMember copy = ObjectCopies.of(resource);
                Optional<Optional<Duration>> next =
                        cachePass.attempt("etcdmember", () -> pass.reconcile(copy, cached.get()));
                if (next.isPresent()) {
                    settled.add(id);
                    return next.get().map(d -> control.rescheduleAfter(d)).orElse(control);
                }
            }
            EtcdMember fresh = context.getClient().resource(resource).get(); // the cache may lag our own status writes
            if (fresh == null || fresh.getMetadata().getDeletionTimestamp() != null) {
                return control;
            }
            try {
                Optional<Duration> next = pass.reconcile(fresh);
                if (next.filter(MemberReconcile.STEADY::equals).isPresent()) {
                    settled.add(id);
                }
                return next.map(d -> control.rescheduleAfter(d)).orElse(control);
            } catch (RuntimeException e) {
                if (NamespaceTermination.refused(e)) {
                    LOG.atInfo().log("namespace is being deleted, and the member with it: no more writes");
                    return control;
                }
                if (!(e instanceof KubernetesClientException k) || k.getCode() != 409) {
                    throw e;
                }
                // the cluster controller wrote isVoter or the initial cluster meanwhile: read again now, not after a
                // back-off
                return control.rescheduleAfter(CONFLICT_RETRY);
            }
        }
    }

    @Override
    public DeleteControl cleanup(EtcdMember resource, Context<EtcdMember> context) {
        settled.remove(ResourceID.fromResource(resource));
        try (var logs = logContext(resource)) {
            MemberReconcile.Cleanup result = pass.cleanup(resource);
            return result.done()
                    ? DeleteControl.defaultDelete()
                    : DeleteControl.noFinalizerRemoval().rescheduleAfter(5000);
        }
    }

    /**
     * The caches a pass reads (the cluster controller's) have seen the Pod and claim versions that woke this
     * controller (its own informers): otherwise a pass on them could report a Pod as it was before.
     */
    private static boolean sameVersions(EtcdMember member, Context<EtcdMember> context, KubeReads cached) {
        String ns = member.getMetadata().getNamespace();
        return InformerReads.sameVersions(
                        context.getSecondaryResource(Pod.class).stream().toList(),
                        cached.pod(ns, member.getMetadata().getName()).stream().toList())
                && InformerReads.sameVersions(
                        context.getSecondaryResource(PersistentVolumeClaim.class).stream()
                                .toList(),
                        cached.volume(ns, Names.dataPvc(member.getMetadata().getName())).stream()
                                .toList());
    }

    private static LogContext logContext(EtcdMember member) {
        return LogContext.of(
                        member.getMetadata().getNamespace(),
                        member.getSpec() == null ? null : member.getSpec().getClusterName())
                .with("member", member.getMetadata().getName());
    }
}
