package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterStatus;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.cluster.StepExecutor.Outcome;
import io.etcdoperator.operator.config.ClusterDomain;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.informer.ObjectCopies;
import io.etcdoperator.operator.metrics.ClusterMetrics;
import io.etcdoperator.operator.planner.Admission;
import io.etcdoperator.operator.planner.ClusterPlanner;
import io.etcdoperator.operator.planner.ClusterView;
import io.etcdoperator.operator.planner.IssuedTls;
import io.etcdoperator.operator.planner.IssuedTlsPlanner;
import io.etcdoperator.operator.planner.ObjectSteps;
import io.etcdoperator.operator.planner.ObservedCluster;
import io.etcdoperator.operator.planner.OwnedObjects;
import io.etcdoperator.operator.planner.Refusal;
import io.etcdoperator.operator.planner.Refusals;
import io.etcdoperator.operator.planner.Step;
import io.etcdoperator.operator.planner.TlsWrite;
import io.etcdoperator.operator.reads.CachePass;
import io.etcdoperator.operator.reads.CachedDefrags;
import io.etcdoperator.operator.reads.KubeReads;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.NameRules;
import io.etcdoperator.operator.tls.CertManagerDiscovery;
import io.etcdoperator.operator.tls.CertManagerGate;
import io.etcdoperator.operator.tls.CertManagerObjects;
import io.etcdoperator.operator.tls.IssuedTlsObserver;
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
    private final IssuedTlsObserver tls;
    private final KubeReads apiServer;
    private final CachePass cachePass;
    private final List<ClusterMemory> memories;
    /** More than any legal sequence of TLS Secret writes (CA, three leaves, three trust syncs) needs in one pass. */
    private static final int MAX_TLS_WRITES = 8;

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
        this.objects = new ClusterObjects(client, new CertManagerObjects(client, events, clusterDomain, clock));
        this.executor = new StepExecutor(client, dialer.secrets(), events, clock, spaceRecoveries, lease, objects);
        this.report = new ClusterReport(client, events, metrics);
        this.clock = clock;
        this.certManagerInstalled = certManagerInstalled;
        this.tls = new IssuedTlsObserver(dialer.secrets(), clusterDomain);
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

    /** Whether the cluster's next pass runs on the caches first (it ended converged, writing no TLS material). */
    boolean settled(String namespace, String name) {
        return pacing.settled(namespace + "/" + name);
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
        KubeReads reads =
                caches.<KubeReads>map(c -> new CachedDefrags(apiServer, c)).orElse(apiServer);
        Optional<Duration> next = reconcile(namespace, name, reads);
        if (next.filter(StepExecutor.AT_ONCE::equals).isPresent()) {
            next = reconcile(namespace, name, reads); // its status written, the step after a record-only one
        }
        return next.map(d -> d.equals(StepExecutor.AT_ONCE) ? StepExecutor.SOON : d);
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
        EtcdClusterStatus status = ObjectCopies.of(before);
        cluster.setStatus(status);
        Instant now = clock.instant();
        List<Refusal> refusals = Refusals.of(cluster.getSpec(), status);
        boolean latched = status.getObserved() != null && status.getClusterToken() != null;
        List<Refusal> named =
                NameRules.check(name).stream().map(Refusal::invalid).toList();
        Optional<Step> admission = planner.admit(new Admission(
                named,
                CertManagerGate.blocks(cluster, certManagerInstalled),
                latched,
                refusals,
                Refusals.takenOverTarget(cluster.getSpec(), status)));
        if (admission.isPresent()) {
            CachePass.needsApiServer("admission " + admission.get().getClass().getSimpleName());
            if (!report.admit(cluster, before, admission.get(), now)) {
                return Optional.empty(); // only an operator restart or a new spec can change this
            }
            // the target is latched and written: this pass goes on (to the seed's step; a pass later cost about 0.5 s)
            before = ObjectCopies.of(status);
        }
        try {
            Optional<IssuedTlsObserver.State> material =
                    IssuedTlsObserver.applies(cluster) ? Optional.of(tls.observe(cluster, reads)) : Optional.empty();
            ClusterObserver.Observation observation = observer.observe(cluster, now, reads);
            OwnedObjects owned = objects.observe(cluster, status.getObserved().getAdditionalMetadata());
            return Optional.of(pass(cluster, before, observation, material, refusals, owned, now, reads));
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

    /** The step the planner gave after the writes it asked first, the view it gave it on, and if TLS was written. */
    private record Planned(Step step, ClusterView view, boolean wroteMaterial) {}

    /**
     * The planner's step after the writes to Services, PodDisruptionBudget and TLS material it asks first, each planned
     * again on what it left (a new cluster's Services, CA, leaves and seed in one pass). An object takes at most two: a
     * create that meets one the cache had not seen yet, then a patch; TLS at most its Secrets and a stamp per member.
     */
    private Planned plan(
            ClusterView view, EtcdCluster cluster, Optional<IssuedTlsObserver.State> material, KubeReads reads) {
        int bound = 2
                        * (view.objects().services().size()
                                + view.objects().certificates().size()
                                + 1)
                + view.tls().map(t -> MAX_TLS_WRITES + t.members().size()).orElse(0);
        Step step = planner.next(view);
        boolean wroteMaterial = false;
        for (int writes = 0; step instanceof Step.Shaping shaping; writes++) {
            CachePass.needsApiServer("planned " + shaping.getClass().getSimpleName());
            if (writes == bound) {
                throw new IllegalStateException("the planner keeps asking for " + shaping); // a planner bug
            }
            switch (shaping) {
                case TlsWrite write -> {
                    executor.issue(write, cluster, material.orElseThrow(), view.now());
                    wroteMaterial = true;
                    material = Optional.of(
                            write instanceof TlsWrite.StampMaterial s
                                    ? material.get().stamped(s.member(), s.material())
                                    : tls.observe(cluster, reads));
                    view = view.with(material.get().view());
                }
                case ObjectSteps.Write write -> view = view.with(executor.shape(write, cluster, view.objects()));
            }
            step = planner.next(view);
        }
        return new Planned(step, view, wroteMaterial);
    }

    private Duration pass(
            EtcdCluster cluster,
            EtcdClusterStatus before,
            ClusterObserver.Observation observation,
            Optional<IssuedTlsObserver.State> material,
            List<Refusal> refusals,
            OwnedObjects owned,
            Instant now,
            KubeReads reads) {
        EtcdClusterStatus status = cluster.getStatus();
        ObservedCluster observed = observation.cluster();
        ClusterView view = new ClusterView(
                cluster.getSpec(),
                status.getObserved(),
                Optional.ofNullable(status.getProgressDeadline()).map(Instant::parse),
                now,
                refusals,
                owned,
                material.map(IssuedTlsObserver.State::view),
                observed);
        int desired = view.desired();
        boolean complete = observed.targetReached(desired);
        Planned planned = plan(view, cluster, material, reads);
        Step step = planned.step();
        Optional<IssuedTls> issued = planned.view().tls();
        report.certificates(cluster, issued);
        String key = cluster.getMetadata().getNamespace() + "/"
                + cluster.getMetadata().getName();
        // the members were observed before the material was written: a new stamp rolls a member in the next pass,
        // which the stamp's EtcdMember event wakes and which must run on the API server
        if (step instanceof Step.Converged && !planned.wroteMaterial()) {
            pacing.settle(key, true);
        } else {
            CachePass.needsApiServer("planned " + step.getClass().getSimpleName()); // acts on the API server's view
        }
        report.refuseOnce(cluster, before, refusals);
        if (step instanceof Step.LatchTarget latch) {
            pacing.wake(key);
            report.latch(cluster, latch.reason(), now);
            report.write(cluster, before);
            return StepExecutor.SOON;
        }
        LOG.atDebug()
                .addKeyValue("cluster", cluster.getMetadata().getName())
                .addKeyValue("step", step)
                .log("planned");
        Outcome outcome = executor.execute(step, cluster, observation, issued.flatMap(IssuedTls::desired));
        ObservedCluster reported = reported(step, outcome, observed);
        Reason exceeded = step instanceof Step.DeadlineExceeded d ? d.reason() : null;
        latch(cluster, outcome, now);
        report.members(observation, executor);
        // enabling auth, and an adoption's removals, end convergence: Progressing stays True with its reason till then
        boolean pending =
                observed.adopting() || (observed.auth().wanted() && !Boolean.TRUE.equals(status.getAuthEnabled()));
        report.pass(cluster, before, reported, desired, complete && !pending, outcome, refusals, exceeded, now);
        report.write(cluster, before);
        return next(step, outcome, key, issued, now);
    }

    /** When to look again: at once after a step that only recorded, else as paced or when TLS material is due. */
    private Duration next(Step step, Outcome outcome, String key, Optional<IssuedTls> issued, Instant now) {
        if (step.recordsOnly() && outcome.reason() == step.reason()) {
            return StepExecutor.AT_ONCE;
        }
        Duration next = pacing.pace(key, outcome.reason(), outcome.recheck(), now);
        Duration tlsNext = issued.map(t -> IssuedTlsPlanner.recheck(t, now)).orElse(next);
        return tlsNext.compareTo(next) < 0 ? tlsNext : next;
    }

    /** The cluster as this pass reports it: a member it restarts is not ready, a learner etcd promoted votes. */
    private static ObservedCluster reported(Step step, Outcome outcome, ObservedCluster observed) {
        ObservedCluster reported = step.stops().map(observed::restarting).orElse(observed);
        return step instanceof Step.PromoteLearner p && outcome.reason() == p.reason()
                ? reported.promoted(p.id())
                : reported;
    }

    /** What the step latched into status: the cluster id it discovered or let go, and auth once enabled. */
    private void latch(EtcdCluster cluster, Outcome outcome, Instant now) {
        EtcdClusterStatus status = cluster.getStatus();
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
    }
}
