package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterStatus;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.cluster.StepExecutor.Outcome;
import io.etcdoperator.operator.config.ClusterDomain;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.metrics.ClusterMetrics;
import io.etcdoperator.operator.planner.Admission;
import io.etcdoperator.operator.planner.ClusterPlanner;
import io.etcdoperator.operator.planner.ClusterView;
import io.etcdoperator.operator.planner.ObservedCluster;
import io.etcdoperator.operator.planner.OwnedObjects;
import io.etcdoperator.operator.planner.Refusal;
import io.etcdoperator.operator.planner.Refusals;
import io.etcdoperator.operator.planner.Step;
import io.etcdoperator.operator.reads.CachePass;
import io.etcdoperator.operator.reads.KubeReads;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.MemberMaterial;
import io.etcdoperator.operator.resources.NameRules;
import io.etcdoperator.operator.tls.CertManagerCertificates;
import io.etcdoperator.operator.tls.CertManagerDiscovery;
import io.etcdoperator.operator.tls.CertManagerGate;
import io.etcdoperator.operator.tls.CertManagerObjects;
import io.etcdoperator.operator.tls.IssuedTlsReconcile;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass over an EtcdCluster: latch the target, observe, plan one step, execute it, report status.
 * Returns when to look again (empty: only on the next event).
 */
public class ClusterReconcile {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterReconcile.class);

    private final KubernetesClient client;
    private final ClusterObserver observer;
    private final EtcdDialer dialer;
    private final StepExecutor executor;
    private final ClusterObjects objects;
    private final ClusterReport report;
    private final Clock clock;
    private final ClusterPlanner planner;
    private final WaitPacing pacing = new WaitPacing();
    private final SpaceRecoveries spaceRecoveries = new SpaceRecoveries();
    private final LossEvidence evidence = new LossEvidence();
    private final boolean certManagerInstalled;
    private final CertManagerObjects certificates;
    private final IssuedTlsReconcile issuedTls;
    private final KubeReads apiServer;
    private final CachePass cachePass;
    private final List<ClusterMemory> memories;
    private volatile Optional<KubeReads> caches = Optional.empty();
    private volatile Optional<IndexerResourceCache<EtcdMember>> memberObjects = Optional.empty();

    /** Looks for cert-manager now (once per operator start) and takes the cluster domain from resolv.conf. */
    public ClusterReconcile(
            KubernetesClient client, EtcdDialer dialer, EventRecorder events, ClusterMetrics metrics, Clock clock) {
        this(
                client,
                dialer,
                events,
                metrics,
                clock,
                CertManagerDiscovery.installed(client),
                ClusterDomain.resolve(Optional.empty(), Path.of("/etc/resolv.conf")));
    }

    public ClusterReconcile(
            KubernetesClient client,
            EtcdDialer dialer,
            EventRecorder events,
            ClusterMetrics metrics,
            Clock clock,
            boolean certManagerInstalled,
            String clusterDomain) {
        this(client, dialer, events, metrics, clock, certManagerInstalled, clusterDomain, LeaseCheck.NONE);
    }

    /** {@code lease}: read between the writes of a step that makes several (leader election on). */
    public ClusterReconcile(
            KubernetesClient client,
            EtcdDialer dialer,
            EventRecorder events,
            ClusterMetrics metrics,
            Clock clock,
            boolean certManagerInstalled,
            String clusterDomain,
            LeaseCheck lease) {
        this(client, dialer, events, metrics, clock, certManagerInstalled, clusterDomain, lease, CachePass.OFF);
    }

    /** {@code cachePass}: a settled cluster's passes run on the informers' caches (see {@link CachePass}). */
    public ClusterReconcile(
            KubernetesClient client,
            EtcdDialer dialer,
            EventRecorder events,
            ClusterMetrics metrics,
            Clock clock,
            boolean certManagerInstalled,
            String clusterDomain,
            LeaseCheck lease,
            CachePass cachePass) {
        this(
                client,
                dialer,
                events,
                metrics,
                clock,
                certManagerInstalled,
                clusterDomain,
                lease,
                cachePass,
                ClusterPlanner.MIN_READY);
    }

    /** {@code minReady}: how long a restarted voter stays Ready before the roll goes on (--member-min-ready-seconds). */
    public ClusterReconcile(
            KubernetesClient client,
            EtcdDialer dialer,
            EventRecorder events,
            ClusterMetrics metrics,
            Clock clock,
            boolean certManagerInstalled,
            String clusterDomain,
            LeaseCheck lease,
            CachePass cachePass,
            Duration minReady) {
        this.planner = new ClusterPlanner(minReady);
        this.client = client;
        this.apiServer = KubeReads.of(client);
        this.cachePass = cachePass;
        this.observer = new ClusterObserver(client, dialer, spaceRecoveries, evidence);
        this.dialer = dialer;
        this.objects = new ClusterObjects(client);
        this.executor = new StepExecutor(client, dialer.secrets(), events, clock, spaceRecoveries, lease, objects);
        this.report = new ClusterReport(client, events, metrics);
        this.clock = clock;
        this.certManagerInstalled = certManagerInstalled;
        this.certificates = new CertManagerObjects(client, events, clusterDomain, clock);
        this.issuedTls = new IssuedTlsReconcile(client, dialer.secrets(), events, clusterDomain);
        this.memories = List.of(report, pacing, dialer::discard, spaceRecoveries, evidence);
    }

    /** The cluster-wide objects; the cluster controller hands them its informers' caches once it has them. */
    public ClusterObjects objects() {
        return objects;
    }

    /** From now on a settled cluster's passes read {@code caches} first (the cluster controller's informers). */
    public void readFrom(KubeReads caches) {
        this.caches = Optional.of(caches);
    }

    /** The member controller's cache of whole EtcdMembers, indexed by cluster (one copy serves both controllers). */
    public void readMembersFrom(IndexerResourceCache<EtcdMember> objects) {
        this.memberObjects = Optional.of(objects);
    }

    Optional<IndexerResourceCache<EtcdMember>> memberObjects() {
        return memberObjects;
    }

    /** The caches once the cluster controller's informers exist (the member controller reads its Pods there too). */
    public Optional<KubeReads> caches() {
        return caches;
    }

    /**
     * A cluster that ended its last pass converged is looked at on the caches, sending nothing; the first request
     * that pass would send ends it, and the pass runs on the API server instead.
     */
    public Optional<Duration> reconcile(String namespace, String name) {
        Optional<KubeReads> cached = caches.filter(c -> cachePass.enabled() && pacing.settled(namespace + "/" + name));
        if (cached.isPresent()) {
            Optional<Optional<Duration>> settled =
                    cachePass.attempt("etcdcluster", () -> reconcile(namespace, name, cached.get()));
            if (settled.isPresent()) {
                return settled.get();
            }
        }
        pacing.settle(namespace + "/" + name, false); // until this pass plans Converged
        return reconcile(namespace, name, apiServer);
    }

    private Optional<Duration> reconcile(String namespace, String name, KubeReads reads) {
        EtcdCluster cluster = reads.cluster(namespace, name).orElse(null);
        if (cluster == null) {
            CachePass.needsApiServer("cluster not cached");
            memories.forEach(memory -> memory.forget(namespace, name));
            return Optional.empty();
        }
        if (cluster.getMetadata().getDeletionTimestamp() != null) {
            // owner references cascade; member finalizers see the cluster going and skip MemberRemove, unless an
            // adopted etcd's own members still vote (MemberReconcile.cleanup)
            return Optional.empty();
        }
        EtcdClusterStatus before = cluster.getStatus() == null ? new EtcdClusterStatus() : cluster.getStatus();
        EtcdClusterStatus status = client.getKubernetesSerialization().clone(before);
        cluster.setStatus(status);
        Instant now = clock.instant();
        List<Refusal> refusals = Refusals.of(cluster.getSpec(), status);
        boolean latched = status.getObserved() != null && status.getClusterToken() != null;
        List<Refusal> named =
                NameRules.check(name).stream().map(Refusal::invalid).toList();
        Optional<Step> admission = planner.admit(
                new Admission(named, CertManagerGate.blocks(cluster, certManagerInstalled), latched, refusals));
        if (admission.isPresent()) {
            CachePass.needsApiServer("admission " + admission.get().getClass().getSimpleName());
            if (!report.admit(cluster, before, admission.get(), now)) {
                return Optional.empty(); // only an operator restart or a new spec can change this
            }
            // the target is latched and written: this pass goes on to the seed's step (a pass later cost about 0.5 s)
            before = client.getKubernetesSerialization().clone(status);
        }
        Refusals.adoptImmutables(cluster.getSpec(), status);
        try {
            Optional<IssuedTlsReconcile.Pass> tls = tls(cluster, now, reads);
            report.certificates(cluster, tls);
            ClusterObserver.Observation observation = observer.observe(cluster, now, reads);
            OwnedObjects owned = objects.observe(cluster, status.getObserved().getAdditionalMetadata());
            Duration next = pass(
                    cluster, before, observation, tls.flatMap(IssuedTlsReconcile.Pass::material), refusals, owned, now);
            return Optional.of(tls.map(IssuedTlsReconcile.Pass::recheck)
                    .filter(t -> t.compareTo(next) < 0)
                    .orElse(next));
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) {
                return Optional.of(StepExecutor.SOON);
            }
            throw e;
        } catch (LeaseCheck.LeaseLost e) {
            // no status write either: the replica holding the Lease resumes the step (each one resumes after a cut)
            LOG.atError()
                    .addKeyValue("cluster", name)
                    .addKeyValue("reason", e.getMessage())
                    .log("step stopped");
            return Optional.empty();
        }
    }

    /** TLS material comes first: members cannot start, nor the operator dial, without it. Restarts are the roller's. */
    private Optional<IssuedTlsReconcile.Pass> tls(EtcdCluster cluster, Instant now, KubeReads reads) {
        if (CertManagerCertificates.usesCertManager(cluster)) {
            certificates.ensure(cluster);
        }
        return IssuedTlsReconcile.applies(cluster)
                ? Optional.of(issuedTls.reconcile(cluster, now, reads))
                : Optional.empty();
    }

    /**
     * The planner's step after the writes to Services and PodDisruptionBudget it asks first, each planned again on what
     * it left (a new cluster's Services and its seed in one pass). An object takes at most two: a create that meets
     * one the cache had not seen yet, then a patch.
     */
    private Step plan(ClusterView view, EtcdCluster cluster) {
        Step step = planner.next(view);
        for (int writes = 0; step instanceof Step.Shaping shaping; writes++) {
            CachePass.needsApiServer("planned " + shaping.getClass().getSimpleName());
            if (writes == 2 * (view.objects().services().size() + 1)) {
                throw new IllegalStateException("the planner keeps asking for " + shaping); // a planner bug
            }
            view = view.with(executor.shape(shaping, cluster, view.objects()));
            step = planner.next(view);
        }
        return step;
    }

    private Duration pass(
            EtcdCluster cluster,
            EtcdClusterStatus before,
            ClusterObserver.Observation observation,
            Optional<MemberMaterial> material,
            List<Refusal> refusals,
            OwnedObjects owned,
            Instant now) {
        EtcdClusterStatus status = cluster.getStatus();
        ObservedCluster observed = observation.cluster();
        ClusterView view = new ClusterView(
                cluster.getSpec(),
                status.getObserved(),
                Optional.ofNullable(status.getProgressDeadline()).map(Instant::parse),
                now,
                refusals,
                owned,
                observed);
        int desired = view.desired();
        boolean complete = observed.targetReached(desired);
        Step step = plan(view, cluster);
        String key = cluster.getMetadata().getNamespace() + "/"
                + cluster.getMetadata().getName();
        if (step instanceof Step.Converged) {
            pacing.settle(key, true);
        } else {
            CachePass.needsApiServer("planned " + step.getClass().getSimpleName()); // acts on the API server's view
        }
        report.refuseOnce(cluster, before, refusals);
        if (step instanceof Step.LatchTarget latch) {
            report.latch(cluster, latch.reason(), now);
            report.write(cluster, before);
            return StepExecutor.SOON;
        }
        LOG.atDebug()
                .addKeyValue("cluster", cluster.getMetadata().getName())
                .addKeyValue("step", step)
                .log("planned");
        Outcome outcome = executor.execute(step, cluster, observation, material);
        ObservedCluster reported = step.stops().map(observed::restarting).orElse(observed);
        Reason exceeded = step instanceof Step.DeadlineExceeded d ? d.reason() : null;
        outcome.latch().ifPresent(id -> status.setClusterID(id.hex()));
        if (outcome.unlatch()) {
            // what was latched of the lost cluster goes; the next pass bootstraps anew, on a new deadline
            status.setClusterID(null);
            status.setAuthEnabled(null);
            report.latch(cluster, Reason.CLUSTER_RESET, now);
        }
        if (outcome.authEnabled()) {
            status.setAuthEnabled(true);
        }
        report.members(observation, executor);
        // enabling auth, and an adoption's removals, end convergence: Progressing stays True with its reason till then
        boolean pending =
                observed.adopting() || (observed.auth().wanted() && !Boolean.TRUE.equals(status.getAuthEnabled()));
        report.pass(cluster, before, reported, desired, complete && !pending, outcome, refusals, exceeded, now);
        report.write(cluster, before);
        return pacing.pace(key, outcome.reason(), outcome.recheck(), now);
    }
}
