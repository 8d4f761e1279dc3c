package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterStatus;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.cluster.StepExecutor.Outcome;
import io.etcdoperator.operator.config.ClusterDomain;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.metrics.ClusterMetrics;
import io.etcdoperator.operator.planner.ClusterPlanner;
import io.etcdoperator.operator.planner.ObservedCluster;
import io.etcdoperator.operator.planner.Refusal;
import io.etcdoperator.operator.planner.Refusals;
import io.etcdoperator.operator.planner.SpecRules;
import io.etcdoperator.operator.planner.Step;
import io.etcdoperator.operator.planner.TargetLatch;
import io.etcdoperator.operator.reads.CachePass;
import io.etcdoperator.operator.reads.KubeReads;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.reason.RestartReason;
import io.etcdoperator.operator.resources.MemberMaterial;
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
        this.executor = new StepExecutor(client, dialer.secrets(), events, clock, spaceRecoveries, lease);
        this.objects = new ClusterObjects(client);
        this.report = new ClusterReport(client, events, metrics, objects);
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
            return Optional
                    .empty(); // owner references cascade; member finalizers see the cluster going and skip MemberRemove
        }
        EtcdClusterStatus before = cluster.getStatus() == null ? new EtcdClusterStatus() : cluster.getStatus();
        EtcdClusterStatus status = client.getKubernetesSerialization().clone(before);
        cluster.setStatus(status);
        Instant now = clock.instant();
        Optional<CertManagerGate.Blocked> blocked = CertManagerGate.check(cluster, certManagerInstalled);
        if (blocked.isPresent()) {
            CachePass.needsApiServer("cert-manager gate");
            report.blocked(cluster, before, blocked.get(), now);
            return Optional.empty(); // only an operator restart (a new discovery) can change this
        }
        List<Refusal> refusals = Refusals.of(cluster.getSpec(), status);
        if (status.getObserved() == null || status.getClusterToken() == null) {
            CachePass.needsApiServer("first pass");
            if (!report.firstPass(cluster, before, refusals, now)) {
                return Optional.empty();
            }
            // the target is latched and written: this pass goes on to the seed's step (a pass later cost about 0.5 s)
            before = client.getKubernetesSerialization().clone(status);
        }
        Refusals.adoptImmutables(cluster.getSpec(), status);
        Optional<String> conflict =
                objects.ensureServices(cluster, status.getObserved().getAdditionalMetadata());
        try {
            Optional<IssuedTlsReconcile.Pass> tls = tls(cluster, now, reads);
            ClusterObserver.Observation observation = observer.observe(cluster, now, reads);
            Duration next = pass(
                    cluster,
                    before,
                    observation,
                    tls.flatMap(IssuedTlsReconcile.Pass::material),
                    refusals,
                    conflict,
                    now);
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

    private Duration pass(
            EtcdCluster cluster,
            EtcdClusterStatus before,
            ClusterObserver.Observation observation,
            Optional<MemberMaterial> material,
            List<Refusal> refusals,
            Optional<String> conflict,
            Instant now) {
        EtcdClusterStatus status = cluster.getStatus();
        ObservedCluster observed = observation.cluster();
        int desired = SpecRules.replicas(status.getObserved());
        boolean complete = observed.targetReached(desired);
        Optional<Instant> deadline =
                Optional.ofNullable(status.getProgressDeadline()).map(Instant::parse);
        TargetLatch.Decision decision = TargetLatch.decide(
                cluster.getSpec(),
                Optional.of(status.getObserved()),
                observed.clusterId().isPresent(),
                complete,
                deadline,
                now,
                refusals.isEmpty(),
                observed.targetCrashLoops());
        if (!(decision instanceof TargetLatch.Keep) || conflict.isPresent()) {
            CachePass.needsApiServer("target decision " + decision.getClass().getSimpleName());
        }
        report.refuseOnce(cluster, before, refusals);
        if (decision instanceof TargetLatch.Latch l) {
            report.latch(cluster, l.reason(), now);
            report.write(cluster, before);
            return StepExecutor.SOON;
        }
        Reason exceeded = null;
        Outcome outcome;
        ObservedCluster reported = observed;
        if (decision instanceof TargetLatch.Exceeded e) {
            boolean upgrading = observed.outdated().stream()
                    .anyMatch(m -> m.outdated().orElseThrow() == RestartReason.VERSION_CHANGED);
            exceeded = e.bootstrapFailed()
                    ? Reason.BOOTSTRAP_FAILED
                    : upgrading ? Reason.UPGRADE_STALLED : Reason.DEADLINE_EXCEEDED;
            outcome = Outcome.problem(exceeded, exceeded.description(), StepExecutor.STEADY);
        } else if (conflict.isPresent()) {
            outcome = Outcome.problem(Reason.RESOURCE_CONFLICT, conflict.get(), StepExecutor.STEADY);
        } else {
            Step step = planner.next(observed, desired);
            if (step instanceof Step.Converged) {
                pacing.settle(
                        cluster.getMetadata().getNamespace() + "/"
                                + cluster.getMetadata().getName(),
                        true);
            } else {
                CachePass.needsApiServer(
                        "planned " + step.getClass().getSimpleName()); // acts only on the API server's view
            }
            LOG.atDebug()
                    .addKeyValue("cluster", cluster.getMetadata().getName())
                    .addKeyValue("step", step)
                    .log("planned");
            outcome = executor.execute(step, cluster, observation, material);
            reported = step.stops().map(observed::restarting).orElse(observed);
        }
        outcome.latch().ifPresent(id -> status.setClusterID(id.hex()));
        if (outcome
                .unlatch()) { // what was latched of the lost cluster; the next pass bootstraps anew, on a new deadline
            status.setClusterID(null);
            status.setAuthEnabled(null);
            report.latch(cluster, Reason.CLUSTER_RESET, now);
        }
        if (outcome.authEnabled()) {
            status.setAuthEnabled(true);
        }
        report.members(observation, executor);
        // enabling auth is the last step of convergence: Progressing stays True with its reason until it latched
        boolean authPending = observed.auth().wanted() && !Boolean.TRUE.equals(status.getAuthEnabled());
        report.pass(cluster, before, reported, desired, complete && !authPending, outcome, refusals, exceeded, now);
        report.write(cluster, before);
        return pacing.pace(
                cluster.getMetadata().getNamespace() + "/"
                        + cluster.getMetadata().getName(),
                outcome.reason(),
                outcome.recheck(),
                now);
    }
}
