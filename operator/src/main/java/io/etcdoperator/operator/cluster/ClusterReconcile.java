package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterStatus;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.cluster.StepExecutor.Outcome;
import io.etcdoperator.operator.config.ClusterDomain;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.metrics.ClusterMetrics;
import io.etcdoperator.operator.planner.EtcdView;
import io.etcdoperator.operator.planner.MembershipPlanner;
import io.etcdoperator.operator.planner.ObservedCluster;
import io.etcdoperator.operator.planner.ObservedMember;
import io.etcdoperator.operator.planner.Reason;
import io.etcdoperator.operator.planner.SpecRules;
import io.etcdoperator.operator.planner.Step;
import io.etcdoperator.operator.planner.TargetLatch;
import io.etcdoperator.operator.resources.Labels;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.status.ClusterHealth;
import io.etcdoperator.operator.status.Conditions;
import io.etcdoperator.operator.tls.CertManagerCertificates;
import io.etcdoperator.operator.tls.CertManagerDiscovery;
import io.etcdoperator.operator.tls.CertManagerGate;
import io.etcdoperator.operator.tls.CertManagerObjects;
import io.etcdoperator.operator.tls.IssuedTlsReconcile;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
  private final StepExecutor executor;
  private final ClusterObjects objects;
  private final EventRecorder events;
  private final ClusterMetrics metrics;
  private final Clock clock;
  private final MembershipPlanner planner = new MembershipPlanner();
  private final RootAuth rootAuth;
  private final boolean certManagerInstalled;
  private final CertManagerObjects certificates;
  private final IssuedTlsReconcile issuedTls;

  /** Looks for cert-manager now (once per operator start) and takes the cluster domain from resolv.conf. */
  public ClusterReconcile(KubernetesClient client, EtcdDialer dialer, EventRecorder events, ClusterMetrics metrics,
      Clock clock) {
    this(client, dialer, events, metrics, clock, CertManagerDiscovery.installed(client),
        ClusterDomain.resolve(Optional.empty(), Path.of("/etc/resolv.conf")));
  }

  public ClusterReconcile(KubernetesClient client, EtcdDialer dialer, EventRecorder events, ClusterMetrics metrics,
      Clock clock, boolean certManagerInstalled, String clusterDomain) {
    this.client = client;
    this.observer = new ClusterObserver(client, dialer);
    this.executor = new StepExecutor(client, events);
    this.rootAuth = new RootAuth(client, events);
    this.objects = new ClusterObjects(client);
    this.events = events;
    this.metrics = metrics;
    this.clock = clock;
    this.certManagerInstalled = certManagerInstalled;
    this.certificates = new CertManagerObjects(client, events, clusterDomain);
    this.issuedTls = new IssuedTlsReconcile(client, events, clusterDomain);
  }

  public Optional<Duration> reconcile(String namespace, String name) {
    EtcdCluster cluster = client.resources(EtcdCluster.class).inNamespace(namespace).withName(name).get();
    if (cluster == null) {
      metrics.forget(namespace, name);
      return Optional.empty();
    }
    if (cluster.getMetadata().getDeletionTimestamp() != null) {
      return Optional.empty(); // owner references cascade; member finalizers see the cluster going and skip MemberRemove
    }
    EtcdClusterStatus before = cluster.getStatus() == null ? new EtcdClusterStatus() : cluster.getStatus();
    EtcdClusterStatus status = client.getKubernetesSerialization().clone(before);
    cluster.setStatus(status);
    Instant now = clock.instant();
    Optional<CertManagerGate.Blocked> blocked = CertManagerGate.check(cluster, certManagerInstalled);
    if (blocked.isPresent()) {
      return block(cluster, before, status, blocked.get(), now);
    }
    List<String> invalid = new ArrayList<>(SpecRules.checkSpec(cluster.getSpec()));
    if (status.getObserved() == null || status.getClusterToken() == null) {
      return firstPass(cluster, before, status, invalid, now);
    }
    invalid.addAll(SpecRules.checkTransition(cluster.getSpec(), status.getObserved()));
    objects.ensureServices(cluster, status.getObserved().getAdditionalMetadata());
    try {
      Optional<Duration> tls = tls(cluster, now);
      try (ClusterObserver.Observation observation = observer.observe(cluster)) {
        return pass(cluster, before, status, observation, invalid, now).map(d -> earlier(d, tls));
      }
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        return Optional.of(StepExecutor.SOON);
      }
      throw e;
    }
  }

  /** TLS material comes first: members cannot start, nor the operator dial, without it. */
  private Optional<Duration> tls(EtcdCluster cluster, Instant now) {
    if (CertManagerCertificates.usesCertManager(cluster)) {
      certificates.ensure(cluster);
    }
    return IssuedTlsReconcile.applies(cluster) ? Optional.of(issuedTls.reconcile(cluster, now)) : Optional.empty();
  }

  private static Duration earlier(Duration membership, Optional<Duration> tls) {
    return tls.filter(t -> t.compareTo(membership) < 0).orElse(membership);
  }

  /** cert-manager is asked for but absent: say so and touch nothing, not even the Certificate API. */
  private Optional<Duration> block(EtcdCluster cluster, EtcdClusterStatus before, EtcdClusterStatus status,
      CertManagerGate.Blocked blocked, Instant now) {
    boolean already = Conditions.find(before.getConditions(), Conditions.AVAILABLE)
        .map(c -> blocked.reason().equals(c.getReason())).orElse(false);
    if (!already) {
      events.warning(cluster, Reason.CERT_MANAGER_NOT_INSTALLED, blocked.message());
      LOG.atWarn().addKeyValue("cluster", cluster.getMetadata().getName())
          .addKeyValue("reason", blocked.reason()).log("cluster blocked");
    }
    status.setConditions(Conditions.set(status.getConditions(), Conditions.AVAILABLE, false, blocked.reason(),
        blocked.message(), cluster.getMetadata().getGeneration(), now));
    write(cluster, before, status);
    return Optional.empty(); // only an operator restart (a new discovery) can change this
  }

  private Optional<Duration> firstPass(EtcdCluster cluster, EtcdClusterStatus before, EtcdClusterStatus status,
      List<String> invalid, Instant now) {
    Long generation = cluster.getMetadata().getGeneration();
    if (!invalid.isEmpty()) {
      String message = "spec refused, nothing created: " + String.join("; ", invalid);
      refuseOnce(cluster, before, message);
      status.setConditions(Conditions.set(status.getConditions(), Conditions.DEGRADED, true,
          Reason.INVALID_SPEC.reason(), message, generation, now));
      status.setConditions(Conditions.set(status.getConditions(), Conditions.AVAILABLE, false,
          Reason.INVALID_SPEC.reason(), message, generation, now));
      write(cluster, before, status);
      return Optional.empty();
    }
    if (status.getClusterToken() == null) {
      status.setClusterToken(Names.clusterToken(cluster));
    }
    latch(cluster, status, Reason.INITIAL_SNAPSHOT, now);
    status.setSelector(Labels.selectorString(cluster.getMetadata().getName()));
    status.setReadyMembers(0);
    write(cluster, before, status);
    return Optional.of(StepExecutor.SOON);
  }

  private Optional<Duration> pass(EtcdCluster cluster, EtcdClusterStatus before, EtcdClusterStatus status,
      ClusterObserver.Observation observation, List<String> invalid, Instant now) {
    ObservedCluster observed = observation.cluster();
    ObservedClusterSpec target = status.getObserved();
    int desired = target.getReplicas() == null ? 3 : target.getReplicas();
    boolean complete = complete(observed, desired);
    Optional<Instant> deadline = Optional.ofNullable(status.getProgressDeadline()).map(Instant::parse);
    TargetLatch.Decision decision = TargetLatch.decide(cluster.getSpec(), Optional.of(target),
        observed.clusterId().isPresent(), complete, deadline, now, invalid.isEmpty());
    if (!invalid.isEmpty()) {
      refuseOnce(cluster, before, String.join("; ", invalid));
    }
    if (decision instanceof TargetLatch.Latch l) {
      latch(cluster, status, l.reason(), now);
      events.normal(cluster, l.reason(), "new target latched: " + SpecRules.replicas(cluster.getSpec()) + " members, "
          + "version " + cluster.getSpec().getVersion());
      write(cluster, before, status);
      return Optional.of(StepExecutor.SOON);
    }
    Reason exceeded = null;
    Outcome outcome;
    boolean authStep = false;
    if (decision instanceof TargetLatch.Exceeded e) {
      exceeded = e.bootstrapFailed() ? Reason.BOOTSTRAP_FAILED : Reason.DEADLINE_EXCEEDED;
      outcome = StepExecutor.Outcome.of(exceeded, exceeded.description(), StepExecutor.STEADY);
      if (reasonChanged(before, exceeded)) {
        events.warning(cluster, exceeded, exceeded.description());
      }
    } else {
      Optional<Outcome> auth = rootAuth.pass(cluster, status, observation.etcd(), complete);
      if (auth.isPresent()) {
        outcome = auth.get();
        authStep = outcome.reason() != Reason.AUTH_ENABLED;
      } else {
        Step step = planner.next(observed, desired);
        LOG.atDebug().addKeyValue("step", step).log("planned");
        outcome = executor.execute(step, cluster, observation.etcd());
        if (step instanceof Step.Wait && reasonChanged(before, outcome.reason())) {
          LOG.atInfo().addKeyValue("reason", outcome.reason().reason()).addKeyValue("detail", outcome.message())
              .log("waiting before next membership step");
        }
      }
    }
    if (authStep && reasonChanged(before, outcome.reason())) {
      events.warning(cluster, outcome.reason(), outcome.message());
    }
    outcome.latch().ifPresent(id -> status.setClusterID(id.hex()));
    syncVoterMarks(observation);
    // a pending auth step keeps Progressing=True with its reason, though membership is complete
    report(cluster, status, observed, desired, complete && !authStep, outcome, invalid, exceeded, now);
    write(cluster, before, status);
    return Optional.of(outcome.recheck());
  }

  /** The latched target is reached: count, readiness, formation, and no learner or joiner in flight. */
  static boolean complete(ObservedCluster observed, int desired) {
    List<ObservedMember> running = observed.running();
    boolean formedOrPaused = observed.clusterId().isPresent() || desired == 0;
    boolean noLearners = !(observed.etcd() instanceof EtcdView.Reached r) || r.membership().learners().isEmpty();
    return formedOrPaused
        && running.size() == desired
        && running.stream().allMatch(m -> m.ready() && !m.pending())
        && !observed.anyDeleting()
        && noLearners;
  }

  private void latch(EtcdCluster cluster, EtcdClusterStatus status, Reason reason, Instant now) {
    status.setObserved(TargetLatch.snapshot(cluster.getSpec()));
    int seconds = cluster.getSpec().getProgressDeadlineSeconds() == null ? 600 : cluster.getSpec().getProgressDeadlineSeconds();
    status.setProgressDeadline(now.plusSeconds(seconds).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
    status.setConditions(Conditions.set(status.getConditions(), Conditions.PROGRESSING, true, reason.reason(),
        reason.description(), cluster.getMetadata().getGeneration(), now));
    LOG.atInfo().addKeyValue("reason", reason.reason()).addKeyValue("replicas", status.getObserved().getReplicas())
        .log("target latched");
  }

  private void report(EtcdCluster cluster, EtcdClusterStatus status, ObservedCluster observed, int desired,
      boolean complete, Outcome outcome, List<String> invalid, Reason exceeded, Instant now) {
    ClusterHealth.Report health = ClusterHealth.assess(observed, desired, complete, outcome.reason(), outcome.message(),
        invalid, exceeded);
    Long generation = cluster.getMetadata().getGeneration();
    List<Condition> conditions = status.getConditions();
    conditions = set(conditions, Conditions.AVAILABLE, health.available(), generation, now);
    conditions = set(conditions, Conditions.PROGRESSING, health.progressing(), generation, now);
    conditions = set(conditions, Conditions.DEGRADED, health.degraded(), generation, now);
    status.setConditions(conditions);
    status.setReadyMembers(health.ready());
    status.setSelector(Labels.selectorString(cluster.getMetadata().getName()));
    status.setBrokenMembers(0);
    status.setObservedGeneration(generation);
    boolean paused = health.progressing().reason() == Reason.PAUSED;
    if (complete || paused) {
      status.setProgressDeadline(null);
    }
    if (observed.clusterId().isPresent() || status.getClusterID() != null) {
      objects.ensureDisruptionBudget(cluster, health.voters(), desired, status.getObserved().getAdditionalMetadata());
    }
    metrics.record(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(),
        new ClusterMetrics.Counts(observed.running().size(), health.voters(), health.learners(), health.ready()));
  }

  private static List<Condition> set(List<Condition> conditions, String type, ClusterHealth.Verdict v, Long generation,
      Instant now) {
    return Conditions.set(conditions, type, v.status(), v.reason().reason(), v.message(), generation, now);
  }

  /** status.isVoter follows etcd's member list, so the next dial and the voter-only PDB see promotions at once. */
  private void syncVoterMarks(ClusterObserver.Observation observation) {
    if (!(observation.cluster().etcd() instanceof EtcdView.Reached reached)) {
      return;
    }
    Membership membership = reached.membership();
    for (EtcdMember m : observation.members()) {
      if (m.getMetadata().getDeletionTimestamp() != null || Boolean.TRUE.equals(m.getSpec().getDormant())) {
        continue;
      }
      var entry = membership.byPeerUrl(Names.peerUrl(m)).or(() -> membership.byName(m.getMetadata().getName()));
      if (entry.isEmpty()) {
        continue;
      }
      boolean voter = !entry.get().learner();
      boolean marked = m.getStatus() != null && Boolean.TRUE.equals(m.getStatus().getIsVoter());
      if (voter != marked) {
        executor.patchStatus(m, Map.of("isVoter", voter));
      }
    }
  }

  private void refuseOnce(EtcdCluster cluster, EtcdClusterStatus before, String message) {
    boolean already = Conditions.find(before.getConditions(), Conditions.DEGRADED)
        .map(c -> Reason.INVALID_SPEC.reason().equals(c.getReason()) && message.equals(c.getMessage())
            || (c.getMessage() != null && c.getMessage().endsWith(message)))
        .orElse(false);
    if (!already) {
      events.warning(cluster, Reason.INVALID_SPEC, message);
      LOG.atWarn().addKeyValue("reason", Reason.INVALID_SPEC.reason()).addKeyValue("violations", message)
          .log("spec change refused");
    }
  }

  private static boolean reasonChanged(EtcdClusterStatus before, Reason reason) {
    return !Conditions.find(before.getConditions(), Conditions.PROGRESSING)
        .map(c -> reason.reason().equals(c.getReason())).orElse(false);
  }

  /** Optimistic write: a stale copy gets 409 and the pass is simply re-run, so a latch is never lost. */
  private void write(EtcdCluster cluster, EtcdClusterStatus before, EtcdClusterStatus after) {
    if (sameStatus(before, after)) {
      return;
    }
    client.resources(EtcdCluster.class).inNamespace(cluster.getMetadata().getNamespace()).resource(cluster).updateStatus();
  }

  private static boolean sameStatus(EtcdClusterStatus a, EtcdClusterStatus b) {
    return Objects.equals(a.getReadyMembers(), b.getReadyMembers())
        && Objects.equals(a.getSelector(), b.getSelector())
        && Objects.equals(a.getBrokenMembers(), b.getBrokenMembers())
        && Objects.equals(a.getClusterID(), b.getClusterID())
        && Objects.equals(a.getClusterToken(), b.getClusterToken())
        && Objects.equals(a.getAuthEnabled(), b.getAuthEnabled())
        && Objects.equals(a.getObserved(), b.getObserved())
        && Objects.equals(a.getProgressDeadline(), b.getProgressDeadline())
        && Objects.equals(a.getObservedGeneration(), b.getObservedGeneration())
        && Conditions.sameMeaning(a.getConditions(), b.getConditions());
  }
}
