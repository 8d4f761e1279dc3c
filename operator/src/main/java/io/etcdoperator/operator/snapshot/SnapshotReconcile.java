package io.etcdoperator.operator.snapshot;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdSnapshot;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotStatus;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.reads.KubeReads;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.AgentImage;
import io.etcdoperator.operator.resources.EtcdMembers;
import io.etcdoperator.operator.resources.Owners;
import io.etcdoperator.operator.resources.SnapshotStorage;
import io.etcdoperator.operator.snapshot.SnapshotProgress.ClusterState;
import io.etcdoperator.operator.snapshot.SnapshotProgress.Decision;
import io.etcdoperator.operator.snapshot.SnapshotProgress.JobState;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One pass over an EtcdSnapshot: observe the cluster and the Job, decide ({@link SnapshotProgress}), act, report. */
public class SnapshotReconcile {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotReconcile.class);

    private final KubernetesClient client;
    private final Optional<AgentImage> agent;
    private final Optional<String> operatorImage;
    private final EventRecorder events;
    private final Clock clock;
    private final VerifyMetrics metrics;

    public SnapshotReconcile(
            KubernetesClient client, Optional<String> operatorImage, EventRecorder events, Clock clock) {
        this(
                client,
                operatorImage.map(image -> new AgentImage(image, AgentImage.DEFAULT_TOOLS_DIR)),
                events,
                clock,
                new VerifyMetrics(new SimpleMeterRegistry()));
    }

    public SnapshotReconcile(
            KubernetesClient client,
            Optional<AgentImage> agent,
            EventRecorder events,
            Clock clock,
            VerifyMetrics metrics) {
        this.client = client;
        this.agent = agent;
        this.operatorImage = agent.map(AgentImage::image);
        this.events = events;
        this.clock = clock;
        this.metrics = metrics;
    }

    public Optional<Duration> reconcile(String namespace, String name) {
        EtcdSnapshot snapshot = client.resources(EtcdSnapshot.class)
                .inNamespace(namespace)
                .withName(name)
                .get();
        if (snapshot == null || snapshot.getMetadata().getDeletionTimestamp() != null) {
            return Optional.empty();
        }
        String phase =
                snapshot.getStatus() == null ? null : snapshot.getStatus().getPhase();
        if (SnapshotProgress.terminal(phase)) {
            // sticky: a finished snapshot is only looked at again to verify it
            return EtcdSnapshotStatus.PHASE_COMPLETE.equals(phase) && SnapshotJobs.verifies(snapshot)
                    ? verify(snapshot)
                    : Optional.empty();
        }
        EtcdCluster cluster = cluster(snapshot);
        List<URI> endpoints = cluster == null ? List.of() : voterEndpoints(cluster);
        Job job = client.batch()
                .v1()
                .jobs()
                .inNamespace(namespace)
                .withName(SnapshotJobs.saveJobName(snapshot))
                .get();
        if (job != null && !Owners.controlledBy(job, snapshot.getMetadata().getUid())) {
            return report(
                    snapshot,
                    Decision.failed(
                            Reason.JOB_CONFLICT.reason(),
                            "Job " + job.getMetadata().getName() + " exists and belongs to another object"));
        }
        Instant now = clock.instant();
        var observation = new SnapshotProgress.Observation(
                phase,
                created(snapshot, now),
                now,
                operatorImage.isPresent(),
                destinationProblem(snapshot),
                clusterState(cluster, endpoints),
                jobState(job, now));
        Decision decision = SnapshotProgress.decide(observation);
        if (decision.createJob()) {
            createJob(SnapshotJobs.save(snapshot, cluster, endpoints, authLatched(cluster), agent.orElseThrow()));
        }
        Optional<Duration> recheck = report(snapshot, decision);
        boolean verifyNext =
                EtcdSnapshotStatus.PHASE_COMPLETE.equals(decision.phase()) && SnapshotJobs.verifies(snapshot);
        return verifyNext ? Optional.of(SnapshotProgress.SOON) : recheck;
    }

    /** The verify pass of a Complete snapshot: one Job, then the Verified condition, an event and the counter. */
    private Optional<Duration> verify(EtcdSnapshot snapshot) {
        var conditions = snapshot.getStatus().getConditions();
        Optional<Condition> verified = Conditions.find(conditions, EtcdSnapshotStatus.CONDITION_VERIFIED);
        if (verified.filter(c -> !"Unknown".equals(c.getStatus())).isPresent()) {
            return Optional.empty();
        }
        Job job = client.batch()
                .v1()
                .jobs()
                .inNamespace(snapshot.getMetadata().getNamespace())
                .withName(SnapshotJobs.verifyJobName(snapshot))
                .get();
        if (job != null && !Owners.controlledBy(job, snapshot.getMetadata().getUid())) {
            writeVerified(
                    snapshot,
                    new VerifyProgress.Verdict(
                            "False",
                            Reason.JOB_CONFLICT.reason(),
                            "Job " + job.getMetadata().getName() + " exists and belongs to another object"));
            return Optional.empty();
        }
        EtcdCluster cluster = cluster(snapshot);
        var observation = new VerifyProgress.Observation(
                true,
                verified.map(Condition::getStatus),
                verified.map(Condition::getReason),
                Optional.ofNullable(cluster).map(c -> c.getSpec().getVersion()),
                jobState(job, clock.instant()));
        var decision = VerifyProgress.decide(observation);
        if (decision.createJob() && agent.isEmpty()) {
            writeVerified(
                    snapshot,
                    new VerifyProgress.Verdict(
                            "False",
                            Reason.OPERATOR_IMAGE_NOT_CONFIGURED.reason(),
                            "the operator has no --operator-image to run the verify agent with"));
            return Optional.empty();
        }
        if (decision.createJob()) {
            createJob(SnapshotJobs.verify(snapshot, observation.etcdVersion().orElseThrow(), agent.get()));
        }
        decision.verdict().ifPresent(v -> writeVerified(snapshot, v));
        return decision.recheck();
    }

    private void writeVerified(EtcdSnapshot snapshot, VerifyProgress.Verdict verdict) {
        EtcdSnapshotStatus status = snapshot.getStatus();
        List<Condition> before = status.getConditions();
        List<Condition> after = Conditions.set(
                before,
                EtcdSnapshotStatus.CONDITION_VERIFIED,
                "True".equals(verdict.status()),
                verdict.reason(),
                verdict.message(),
                snapshot.getMetadata().getGeneration(),
                clock.instant());
        Conditions.find(after, EtcdSnapshotStatus.CONDITION_VERIFIED).ifPresent(c -> c.setStatus(verdict.status()));
        if (Conditions.sameMeaning(before, after)) {
            return;
        }
        status.setConditions(after);
        client.resource(snapshot).updateStatus();
        if (!verdict.settled()) {
            return;
        }
        boolean ok = "True".equals(verdict.status());
        metrics.record(ok, verdict.reason());
        if (ok) {
            events.normal(snapshot, verdict.reason(), verdict.message());
        } else {
            events.warning(snapshot, verdict.reason(), verdict.message());
        }
        LOG.atInfo()
                .addKeyValue("snapshot", snapshot.getMetadata().getName())
                .addKeyValue("verified", verdict.status())
                .addKeyValue("reason", verdict.reason())
                .log("snapshot verification settled");
    }

    private void createJob(Job job) {
        try {
            client.batch()
                    .v1()
                    .jobs()
                    .inNamespace(job.getMetadata().getNamespace())
                    .resource(job)
                    .create();
            LOG.atInfo().addKeyValue("job", job.getMetadata().getName()).log("created snapshot job");
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
            // already there (a previous pass whose status write failed): the next pass reads its state
        }
    }

    private EtcdCluster cluster(EtcdSnapshot snapshot) {
        var ref = snapshot.getSpec().getClusterRef();
        if (ref == null || ref.getName() == null || ref.getName().isBlank()) {
            return null;
        }
        return client.resources(EtcdCluster.class)
                .inNamespace(snapshot.getMetadata().getNamespace())
                .withName(ref.getName())
                .get();
    }

    /** Client URLs of running voters by DNS name; learners refuse the Maintenance RPCs the agent needs. */
    private List<URI> voterEndpoints(EtcdCluster cluster) {
        return EtcdMembers.voterEndpoints(KubeReads.of(client)
                .members(
                        cluster.getMetadata().getNamespace(),
                        cluster.getMetadata().getName()));
    }

    static ClusterState clusterState(EtcdCluster cluster, List<URI> endpoints) {
        if (cluster == null) {
            return ClusterState.MISSING;
        }
        boolean formed = cluster.getStatus() != null
                && cluster.getStatus().getClusterID() != null
                && !cluster.getStatus().getClusterID().isBlank();
        if (!formed || endpoints.isEmpty()) {
            return ClusterState.NO_VOTERS;
        }
        boolean authWanted = cluster.getSpec().getAuth() != null
                && Boolean.TRUE.equals(cluster.getSpec().getAuth().getEnabled());
        return authWanted && !authLatched(cluster) ? ClusterState.AUTH_NOT_LATCHED : ClusterState.READY;
    }

    private static boolean authLatched(EtcdCluster cluster) {
        return cluster.getStatus() != null
                && Boolean.TRUE.equals(cluster.getStatus().getAuthEnabled());
    }

    static Optional<String> destinationProblem(EtcdSnapshot snapshot) {
        try {
            SnapshotStorage.of(snapshot.getSpec().getDestination(), "destination", SnapshotJobs.PVC_MOUNT, false);
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of("spec.destination: " + e.getMessage());
        }
    }

    private JobState jobState(Job job, Instant now) {
        if (job == null) {
            return new JobState.Absent();
        }
        List<Pod> pods = pods(job);
        Optional<AgentReport> lastFailure = pods.stream()
                .filter(p ->
                        p.getStatus() != null && "Failed".equals(p.getStatus().getPhase()))
                .max(Comparator.comparing(p -> p.getMetadata().getCreationTimestamp() == null
                        ? ""
                        : p.getMetadata().getCreationTimestamp()))
                .flatMap(AgentReport::fromTermination);
        var status = job.getStatus();
        if (condition(job, "Failed")) {
            String message = status.getConditions().stream()
                    .filter(c -> "Failed".equals(c.getType()))
                    .map(c -> c.getReason() + ": " + c.getMessage())
                    .findFirst()
                    .orElse("");
            return new JobState.Failed(message, lastFailure);
        }
        if (condition(job, "Complete")
                || (status != null && status.getSucceeded() != null && status.getSucceeded() > 0)) {
            Optional<AgentReport> report = pods.stream()
                    .filter(p -> p.getStatus() != null
                            && "Succeeded".equals(p.getStatus().getPhase()))
                    .map(AgentReport::fromTermination)
                    .flatMap(Optional::stream)
                    .findFirst();
            Instant completed = status != null && status.getCompletionTime() != null
                    ? Instant.parse(status.getCompletionTime())
                    : now;
            return new JobState.Succeeded(report, completed);
        }
        return new JobState.Running(lastFailure);
    }

    private List<Pod> pods(Job job) {
        return client
                .pods()
                .inNamespace(job.getMetadata().getNamespace())
                .withLabel("job-name", job.getMetadata().getName())
                .list()
                .getItems()
                .stream()
                .filter(p -> Owners.controlledBy(p, job.getMetadata().getUid()))
                .toList();
    }

    private static boolean condition(Job job, String type) {
        List<JobCondition> conditions =
                job.getStatus() == null ? null : job.getStatus().getConditions();
        return conditions != null
                && conditions.stream().anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static Instant created(EtcdSnapshot snapshot, Instant fallback) {
        String created = snapshot.getMetadata().getCreationTimestamp();
        return created == null ? fallback : Instant.parse(created);
    }

    private Optional<Duration> report(EtcdSnapshot snapshot, Decision decision) {
        EtcdSnapshotStatus before = snapshot.getStatus() == null ? new EtcdSnapshotStatus() : snapshot.getStatus();
        EtcdSnapshotStatus after = new EtcdSnapshotStatus();
        after.setPhase(decision.phase());
        after.setArtifact(decision.artifact().map(AgentReport::artifact).orElse(before.getArtifact()));
        after.setConditions(Conditions.set(
                before.getConditions(),
                Conditions.READY,
                EtcdSnapshotStatus.PHASE_COMPLETE.equals(decision.phase()),
                decision.reason(),
                decision.message(),
                snapshot.getMetadata().getGeneration(),
                clock.instant()));
        if (Objects.equals(before.getPhase(), after.getPhase())
                && Objects.equals(before.getArtifact(), after.getArtifact())
                && Conditions.sameMeaning(before.getConditions(), after.getConditions())) {
            return decision.recheck();
        }
        snapshot.setStatus(after);
        client.resource(snapshot).updateStatus(); // optimistic: a conflict re-runs the pass, which re-reads the Job
        announce(snapshot, before.getPhase(), decision);
        return decision.recheck();
    }

    private void announce(EtcdSnapshot snapshot, String before, Decision decision) {
        if (Objects.equals(before, decision.phase())) {
            return;
        }
        switch (decision.phase()) {
            case EtcdSnapshotStatus.PHASE_STARTED ->
                events.normal(
                        snapshot,
                        Reason.SNAPSHOT_STARTED.reason(),
                        "snapshot Job " + SnapshotJobs.saveJobName(snapshot) + " created");
            case EtcdSnapshotStatus.PHASE_COMPLETE -> events.normal(snapshot, decision.reason(), decision.message());
            case EtcdSnapshotStatus.PHASE_FAILED -> events.warning(snapshot, decision.reason(), decision.message());
            default -> {}
        }
        LOG.atInfo()
                .addKeyValue("snapshot", snapshot.getMetadata().getName())
                .addKeyValue("phase", decision.phase())
                .addKeyValue("reason", decision.reason())
                .log("snapshot phase changed");
    }
}
