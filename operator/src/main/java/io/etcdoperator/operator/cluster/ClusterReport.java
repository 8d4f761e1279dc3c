package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterStatus;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.cluster.StepExecutor.Outcome;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.metrics.ClusterMetrics;
import io.etcdoperator.operator.planner.EtcdView;
import io.etcdoperator.operator.planner.IssuedTls;
import io.etcdoperator.operator.planner.ObservedCluster;
import io.etcdoperator.operator.planner.ObservedMember;
import io.etcdoperator.operator.planner.Refusal;
import io.etcdoperator.operator.planner.SpecRules;
import io.etcdoperator.operator.planner.Step;
import io.etcdoperator.operator.planner.TargetLatch;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.Labels;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.status.ClusterHealth;
import io.etcdoperator.operator.status.Conditions;
import io.etcdoperator.operator.tls.CertManagerGate;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a cluster pass reports: status (conditions, counts, latch, version), the EtcdMembers' voter and version
 * marks, events once per new problem, and metrics. The status is written only when the whole object changed.
 */
final class ClusterReport implements ClusterMemory {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterReport.class);

    private final KubernetesClient client;
    private final EventRecorder events;
    private final ClusterMetrics metrics;

    ClusterReport(KubernetesClient client, EventRecorder events, ClusterMetrics metrics) {
        this.client = client;
        this.events = events;
        this.metrics = metrics;
    }

    @Override
    public void forget(String namespace, String name) {
        metrics.forget(namespace, name);
    }

    /**
     * Carries out the planner's admission step and writes it; true when the pass goes on (the first target was
     * latched, or a taken-over cluster's tls, auth and bootstrap), false when nothing else happens (cert-manager
     * missing, the first spec refused).
     */
    boolean admit(EtcdCluster cluster, EtcdClusterStatus before, Step admission, Instant now) {
        switch (admission) {
            case Step.AwaitCertManager gate -> blocked(cluster, before, gate.reason(), now);
            case Step.RefuseSpec refused -> refused(cluster, before, refused.refusals(), now);
            case Step.LatchTarget latch -> firstTarget(cluster, before, now);
            case Step.AdoptImmutables adopt -> adopt(cluster, before, adopt);
            default -> throw new IllegalArgumentException(admission + " is not an admission step");
        }
        return admission instanceof Step.LatchTarget || admission instanceof Step.AdoptImmutables;
    }

    /** A cluster taken over from cozystack's operator: its target gains the spec's tls, auth and bootstrap, once. */
    private void adopt(EtcdCluster cluster, EtcdClusterStatus before, Step.AdoptImmutables adopt) {
        cluster.getStatus().setObserved(adopt.target());
        write(cluster, before);
        events.normal(cluster, adopt.reason(), adopt.reason().description());
        LOG.atInfo()
                .addKeyValue("cluster", cluster.getMetadata().getName())
                .addKeyValue("reason", adopt.reason().reason())
                .log(adopt.reason().description());
    }

    /** cert-manager is asked for but absent: say so and touch nothing, not even the Certificate API. */
    private void blocked(EtcdCluster cluster, EtcdClusterStatus before, Reason reason, Instant now) {
        boolean already = Conditions.find(before.getConditions(), Conditions.AVAILABLE)
                .map(c -> reason.reason().equals(c.getReason()))
                .orElse(false);
        if (!already) {
            events.warning(cluster, reason, CertManagerGate.MESSAGE);
            LOG.atWarn()
                    .addKeyValue("cluster", cluster.getMetadata().getName())
                    .addKeyValue("reason", reason.reason())
                    .log("cluster blocked");
        }
        EtcdClusterStatus status = cluster.getStatus();
        status.setConditions(Conditions.set(
                status.getConditions(),
                Conditions.AVAILABLE,
                false,
                reason.reason(),
                CertManagerGate.MESSAGE,
                cluster.getMetadata().getGeneration(),
                now));
        write(cluster, before);
    }

    /** The first spec is refused: nothing is created. */
    private void refused(EtcdCluster cluster, EtcdClusterStatus before, List<Refusal> refusals, Instant now) {
        EtcdClusterStatus status = cluster.getStatus();
        Long generation = cluster.getMetadata().getGeneration();
        String message = "spec refused, nothing created: " + messages(refusals);
        refuseOnce(cluster, before, refusals);
        Reason reason = refusals.getFirst().reason();
        status.setConditions(Conditions.set(
                status.getConditions(), Conditions.DEGRADED, true, reason.reason(), message, generation, now));
        status.setConditions(Conditions.set(
                status.getConditions(), Conditions.AVAILABLE, false, reason.reason(), message, generation, now));
        write(cluster, before);
    }

    /** Latches the first target, with the cluster token and the selector, and writes it. */
    private void firstTarget(EtcdCluster cluster, EtcdClusterStatus before, Instant now) {
        EtcdClusterStatus status = cluster.getStatus();
        if (status.getClusterToken() == null) {
            status.setClusterToken(Names.clusterToken(cluster));
        }
        latch(cluster, Reason.INITIAL_SNAPSHOT, now);
        status.setSelector(Labels.selectorString(cluster.getMetadata().getName()));
        status.setReadyMembers(0);
        write(cluster, before);
    }

    /** now plus spec.progressDeadlineSeconds, to the second: a target's (or an adoption's joins') deadline. */
    static String deadline(EtcdCluster cluster, Instant now) {
        return now.plus(PodScheduling.progressDeadline(cluster))
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();
    }

    void latch(EtcdCluster cluster, Reason reason, Instant now) {
        EtcdClusterStatus status = cluster.getStatus();
        status.setObserved(TargetLatch.snapshot(cluster.getSpec()));
        status.setProgressDeadline(deadline(cluster, now));
        status.setConditions(Conditions.set(
                status.getConditions(),
                Conditions.PROGRESSING,
                true,
                reason.reason(),
                reason.description(),
                cluster.getMetadata().getGeneration(),
                now));
        if (reason != Reason.INITIAL_SNAPSHOT) {
            events.normal(
                    cluster,
                    reason,
                    "new target latched: " + SpecRules.replicas(cluster.getSpec()) + " members, " + "version "
                            + cluster.getSpec().getVersion());
        }
        LOG.atInfo()
                .addKeyValue("cluster", cluster.getMetadata().getName())
                .addKeyValue("reason", reason.reason())
                .addKeyValue("replicas", status.getObserved().getReplicas())
                .addKeyValue("version", status.getObserved().getVersion())
                .log("target latched");
    }

    void pass(
            EtcdCluster cluster,
            EtcdClusterStatus before,
            ObservedCluster observed,
            int desired,
            boolean complete,
            Outcome outcome,
            List<Refusal> refusals,
            Reason exceeded,
            Instant now) {
        EtcdClusterStatus status = cluster.getStatus();
        if ((outcome.warning() || exceeded != null) && reasonChanged(before, outcome.reason())) {
            events.warning(cluster, outcome.reason(), outcome.message());
            LOG.atWarn()
                    .addKeyValue("cluster", cluster.getMetadata().getName())
                    .addKeyValue("reason", outcome.reason().reason())
                    .addKeyValue("detail", outcome.message())
                    .log("not yet");
        } else if (reasonChanged(before, outcome.reason())) {
            LOG.atInfo()
                    .addKeyValue("cluster", cluster.getMetadata().getName())
                    .addKeyValue("reason", outcome.reason().reason())
                    .addKeyValue("detail", outcome.message())
                    .log("pass");
        }
        ClusterHealth.Report health = ClusterHealth.assess(
                observed, desired, complete, outcome.reason(), outcome.message(), refusals, exceeded);
        Long generation = cluster.getMetadata().getGeneration();
        List<Condition> conditions = status.getConditions();
        conditions = set(conditions, Conditions.AVAILABLE, health.available(), generation, now);
        conditions = set(conditions, Conditions.PROGRESSING, health.progressing(), generation, now);
        conditions = set(conditions, Conditions.DEGRADED, health.degraded(), generation, now);
        conditions = set(conditions, Conditions.READY, health.readiness(), generation, now);
        status.setConditions(conditions);
        status.setReadyMembers(health.ready());
        status.setSelector(Labels.selectorString(cluster.getMetadata().getName()));
        status.setBrokenMembers(health.broken());
        status.setObservedGeneration(generation);
        observed.lowestRunningVersion().ifPresent(v -> status.setVersion(v.toString()));
        boolean paused = health.progressing().reason() == Reason.PAUSED;
        if (complete || paused || observed.adopting() && observed.targetReached(desired)) { // a person's wait
            status.setProgressDeadline(null);
        }
        record(cluster, observed, health, now);
    }

    private void record(EtcdCluster cluster, ObservedCluster observed, ClusterHealth.Report health, Instant now) {
        metrics.record(
                cluster.getMetadata().getNamespace(),
                cluster.getMetadata().getName(),
                new ClusterMetrics.Counts(
                        observed.running().size(), health.voters(), health.learners(), health.ready()));
        var endpoints =
                observed.running().stream().flatMap(m -> m.endpoint().stream()).toList();
        metrics.record(
                cluster.getMetadata().getNamespace(),
                cluster.getMetadata().getName(),
                new ClusterMetrics.Space(
                        endpoints.stream().mapToLong(e -> e.dbSize()).max().orElse(0),
                        endpoints.stream().mapToLong(e -> e.dbSizeInUse()).max().orElse(0),
                        observed.maintenance().quotaBytes(),
                        observed.maintenance().alarms().size()));
        metrics.passed(
                cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), now);
    }

    /** When the certificates the operator issued are due for renewal and expire (0 without): an alert reads them. */
    void certificates(EtcdCluster cluster, Optional<IssuedTls> tls) {
        metrics.certificates(
                cluster.getMetadata().getNamespace(),
                cluster.getMetadata().getName(),
                tls.flatMap(IssuedTls::earliestRenewal),
                tls.flatMap(IssuedTls::earliestExpiry));
    }

    /**
     * status.isVoter follows etcd's member list (so the next dial and the voter-only PDB see promotions at once) and
     * status.version what the member reports running.
     */
    void members(ClusterObserver.Observation observation, StepExecutor executor) {
        if (!(observation.cluster().etcd() instanceof EtcdView.Reached reached)) {
            return;
        }
        Membership membership = reached.membership();
        for (EtcdMember m : observation.members()) {
            if (m.getMetadata().getDeletionTimestamp() != null
                    || Boolean.TRUE.equals(m.getSpec().getDormant())) {
                continue;
            }
            var entry = membership.entryOf(m.getMetadata().getName(), Names.peerUrl(m));
            if (entry.isEmpty()) {
                continue;
            }
            Map<String, Object> changes = new LinkedHashMap<>();
            boolean voter = !entry.get().learner();
            if (m.getStatus() == null || !Objects.equals(m.getStatus().getIsVoter(), voter)) {
                changes.put("isVoter", voter);
            }
            Optional<String> running = observation
                    .cluster()
                    .byName(m.getMetadata().getName())
                    .flatMap(ObservedMember::endpoint)
                    .map(EndpointStatus::version);
            if (running.isPresent()
                    && (m.getStatus() == null
                            || !running.get().equals(m.getStatus().getVersion()))) {
                changes.put("version", running.get());
            }
            if (!changes.isEmpty()) {
                executor.patchStatus(m, changes);
            }
        }
    }

    void refuseOnce(EtcdCluster cluster, EtcdClusterStatus before, List<Refusal> refusals) {
        if (refusals.isEmpty()) {
            return;
        }
        String message = messages(refusals);
        boolean already = Conditions.find(before.getConditions(), Conditions.DEGRADED)
                .map(c -> c.getMessage() != null && c.getMessage().endsWith(message))
                .orElse(false);
        if (!already) {
            Reason reason = refusals.getFirst().reason();
            events.warning(cluster, reason, message);
            LOG.atWarn()
                    .addKeyValue("cluster", cluster.getMetadata().getName())
                    .addKeyValue("reason", reason.reason())
                    .addKeyValue("violations", message)
                    .log("spec change refused");
        }
    }

    /** Optimistic write of the whole status, only when it changed: a stale copy gets 409 and the pass re-runs. */
    void write(EtcdCluster cluster, EtcdClusterStatus before) {
        var json = client.getKubernetesSerialization();
        if (json.asJson(before).equals(json.asJson(cluster.getStatus()))) {
            return;
        }
        EtcdCluster written = client.resources(EtcdCluster.class)
                .inNamespace(cluster.getMetadata().getNamespace())
                .resource(cluster)
                .updateStatus();
        if (written != null && written.getMetadata() != null) {
            // a later write of the same pass (the first pass goes on into the seed's step) must not get a 409
            cluster.getMetadata().setResourceVersion(written.getMetadata().getResourceVersion());
        }
    }

    private static String messages(List<Refusal> refusals) {
        return String.join("; ", refusals.stream().map(Refusal::message).toList());
    }

    private static boolean reasonChanged(EtcdClusterStatus before, Reason reason) {
        return !Conditions.find(before.getConditions(), Conditions.PROGRESSING)
                .map(c -> reason.reason().equals(c.getReason()))
                .orElse(false);
    }

    private static List<Condition> set(
            List<Condition> conditions, String type, ClusterHealth.Verdict v, Long generation, Instant now) {
        return Conditions.set(conditions, type, v.status(), v.reason().reason(), v.message(), generation, now);
    }
}
