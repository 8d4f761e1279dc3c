package io.etcdoperator.operator.snapshot;

import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.EtcdSnapshot;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotSchedule;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotScheduleSpec;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotScheduleStatus;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotSpec;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotStatus;
import io.etcdoperator.api.v1alpha2.ScheduleFailure;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.Labels;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.resources.Owners;
import io.etcdoperator.operator.schedule.CronSchedule;
import io.etcdoperator.operator.schedule.RetentionPlan;
import io.etcdoperator.operator.schedule.RetentionPlan.Outcome;
import io.etcdoperator.operator.schedule.SchedulePlan;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass over an EtcdSnapshotSchedule: create the due EtcdSnapshot, prune what retention gives up, report status
 * and metrics, and ask to be woken at the next firing. A pruned complete snapshot's stored object is deleted by an
 * {@code agent snapshot delete} Job first, and the EtcdSnapshot only once that Job succeeded, so no object is orphaned.
 */
public class ScheduleReconcile {

    private static final Logger LOG = LoggerFactory.getLogger(ScheduleReconcile.class);
    /** On a schedule's snapshot chosen for pruning, so the choice is visible and survives retention edits. */
    public static final String LABEL_RETENTION = EtcdOperatorApi.RESERVED_PREFIX + "retention";

    static final String PRUNE = "prune";
    /** On a schedule's snapshot: the firing it was taken for; retention orders snapshots by it. */
    public static final String ANNOTATION_SCHEDULED_AT = EtcdOperatorApi.RESERVED_PREFIX + "scheduled-at";

    private final KubernetesClient client;
    private final Optional<String> operatorImage;
    private final EventRecorder events;
    private final ScheduleMetrics metrics;
    private final Clock clock;

    public ScheduleReconcile(
            KubernetesClient client,
            Optional<String> operatorImage,
            EventRecorder events,
            ScheduleMetrics metrics,
            Clock clock) {
        this.client = client;
        this.operatorImage = operatorImage;
        this.events = events;
        this.metrics = metrics;
        this.clock = clock;
    }

    public Optional<Duration> reconcile(String namespace, String name) {
        EtcdSnapshotSchedule schedule = client.resources(EtcdSnapshotSchedule.class)
                .inNamespace(namespace)
                .withName(name)
                .get();
        if (schedule == null || schedule.getMetadata().getDeletionTimestamp() != null) {
            metrics.forget(namespace, name);
            return Optional.empty();
        }
        EtcdSnapshotScheduleSpec spec = schedule.getSpec();
        CronSchedule cron;
        ZoneId zone;
        Optional<Duration> maxAge;
        try {
            cron = CronSchedule.parse(spec.getSchedule());
            zone = spec.getTimeZone() == null || spec.getTimeZone().isBlank()
                    ? ZoneOffset.UTC
                    : ZoneId.of(spec.getTimeZone());
            maxAge = Optional.ofNullable(spec.getRetention())
                    .map(r -> r.getMaxAge())
                    .map(RetentionPlan::age);
            cron.next(clock.instant().atZone(zone)); // an expression that never fires is refused here, once
        } catch (IllegalArgumentException | DateTimeException e) {
            refuse(schedule, e.getMessage());
            return Optional.empty(); // the next spec change brings the next pass
        }
        Instant now = clock.instant();
        List<EtcdSnapshot> owned = snapshots(schedule);
        var decision = SchedulePlan.decide(new SchedulePlan.Observation(
                cron,
                zone,
                Boolean.TRUE.equals(spec.getSuspend()),
                created(schedule.getMetadata().getCreationTimestamp(), now),
                Optional.ofNullable(schedule.getStatus())
                        .map(EtcdSnapshotScheduleStatus::getLastScheduleTime)
                        .map(Instant::parse),
                now,
                owned.stream().map(ScheduleReconcile::planned).toList(),
                Optional.ofNullable(spec.getRetention()).map(r -> r.getKeepLast()),
                maxAge));
        if (decision.create()) {
            owned.add(createSnapshot(schedule, decision.slot().orElseThrow()));
        } else if (decision.slot().isPresent()) {
            events.normal(
                    schedule,
                    Reason.SNAPSHOT_SKIPPED.reason(),
                    "previous snapshot has not finished; skipping the firing at "
                            + decision.slot().get());
        }
        List<String> problems = pruned(schedule, owned, decision.prune());
        boolean ok = problems.isEmpty();
        String reason = !ok
                ? Reason.PRUNE_BLOCKED.reason()
                : Boolean.TRUE.equals(spec.getSuspend()) ? Reason.SUSPENDED.reason() : Reason.SCHEDULED.reason();
        String message = !ok
                ? String.join("; ", problems)
                : Boolean.TRUE.equals(spec.getSuspend())
                        ? "suspended; no snapshots are created"
                        : "next snapshot at " + decision.nextFiring();
        EtcdSnapshotScheduleStatus status =
                ScheduleStatus.of(schedule, owned, decision.slot(), ok, reason, message, now);
        writeStatus(schedule, status);
        metrics.record(
                namespace,
                name,
                new ScheduleMetrics.Progress(
                        Optional.ofNullable(status.getLastSuccessfulTime()).map(Instant::parse),
                        Optional.ofNullable(status.getLastFailure())
                                .map(ScheduleFailure::getTime)
                                .map(Instant::parse),
                        Boolean.TRUE.equals(spec.getSuspend()) ? Duration.ZERO : cron.longestGap(now.atZone(zone))));
        return Optional.of(decision.recheck());
    }

    private void refuse(EtcdSnapshotSchedule schedule, String why) {
        writeStatus(
                schedule,
                ScheduleStatus.of(
                        schedule,
                        List.of(),
                        Optional.empty(),
                        false,
                        Reason.INVALID_SCHEDULE.reason(),
                        why,
                        clock.instant()));
    }

    /** Prunes {@code names} of {@code owned}; answers why some could not go. */
    private List<String> pruned(EtcdSnapshotSchedule schedule, List<EtcdSnapshot> owned, List<String> names) {
        List<String> problems = new ArrayList<>();
        for (String pruned : names) {
            owned.stream()
                    .filter(s -> s.getMetadata().getName().equals(pruned))
                    .findFirst()
                    .flatMap(s -> prune(schedule, s))
                    .ifPresent(problems::add);
        }
        return problems;
    }

    private List<EtcdSnapshot> snapshots(EtcdSnapshotSchedule schedule) {
        return new ArrayList<>(client
                .resources(EtcdSnapshot.class)
                .inNamespace(schedule.getMetadata().getNamespace())
                .withLabel(EtcdSnapshotSchedule.LABEL_SCHEDULE, Names.labelOf(schedule))
                .list()
                .getItems()
                .stream()
                .filter(s -> Owners.controlledBy(s, schedule.getMetadata().getUid()))
                .filter(s -> s.getMetadata().getDeletionTimestamp() == null)
                .toList());
    }

    static SchedulePlan.Snapshot planned(EtcdSnapshot s) {
        String phase = s.getStatus() == null ? null : s.getStatus().getPhase();
        Outcome outcome = EtcdSnapshotStatus.PHASE_COMPLETE.equals(phase)
                ? Outcome.COMPLETE
                : EtcdSnapshotStatus.PHASE_FAILED.equals(phase) ? Outcome.FAILED : Outcome.RUNNING;
        Map<String, String> labels = s.getMetadata().getLabels();
        boolean pruning = labels != null && PRUNE.equals(labels.get(LABEL_RETENTION));
        Map<String, String> annotations = s.getMetadata().getAnnotations();
        String scheduledAt = annotations == null ? null : annotations.get(ANNOTATION_SCHEDULED_AT);
        Instant created = scheduledAt != null
                ? Instant.parse(scheduledAt)
                : created(s.getMetadata().getCreationTimestamp(), Instant.EPOCH);
        return new SchedulePlan.Snapshot(s.getMetadata().getName(), created, outcome, pruning);
    }

    private EtcdSnapshot createSnapshot(EtcdSnapshotSchedule schedule, Instant slot) {
        String name = SchedulePlan.snapshotName(schedule.getMetadata().getName(), slot);
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(Labels.MANAGED_BY, Labels.MANAGER);
        labels.put(EtcdSnapshotSchedule.LABEL_SCHEDULE, Names.labelOf(schedule));
        EtcdSnapshot snapshot = new EtcdSnapshot();
        snapshot.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(schedule.getMetadata().getNamespace())
                .withLabels(labels)
                .withAnnotations(Map.of(ANNOTATION_SCHEDULED_AT, ScheduleStatus.time(slot)))
                .withOwnerReferences(Owners.controller(schedule))
                .build());
        EtcdSnapshotSpec spec = new EtcdSnapshotSpec();
        spec.setClusterRef(schedule.getSpec().getClusterRef());
        spec.setDestination(schedule.getSpec().getDestination());
        spec.setVerify(schedule.getSpec().getVerify());
        snapshot.setSpec(spec);
        try {
            EtcdSnapshot created = client.resource(snapshot).create();
            events.normal(
                    schedule,
                    Reason.SNAPSHOT_CREATED.reason(),
                    "created EtcdSnapshot " + name + " for the firing at " + slot);
            LOG.atInfo()
                    .addKeyValue("schedule", schedule.getMetadata().getName())
                    .addKeyValue("snapshot", name)
                    .log("scheduled snapshot created");
            return created;
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
            return snapshot; // the deterministic name makes a repeated firing a no-op
        }
    }

    /** One step of pruning one snapshot; a problem that blocks it, if any. */
    private Optional<String> prune(EtcdSnapshotSchedule schedule, EtcdSnapshot snapshot) {
        markForPruning(snapshot);
        boolean stored = snapshot.getStatus() != null
                && snapshot.getStatus().getArtifact() != null
                && EtcdSnapshotStatus.PHASE_COMPLETE.equals(snapshot.getStatus().getPhase());
        if (!stored) {
            delete(
                    schedule,
                    snapshot,
                    "failed snapshot " + snapshot.getMetadata().getName() + " pruned");
            return Optional.empty();
        }
        if (operatorImage.isEmpty()) {
            return Optional.of("cannot delete stored snapshots without the operator image (--operator-image)");
        }
        String jobName = SnapshotJobs.pruneJobName(snapshot);
        String ns = schedule.getMetadata().getNamespace();
        Job job = client.batch().v1().jobs().inNamespace(ns).withName(jobName).get();
        if (job == null) {
            client.batch()
                    .v1()
                    .jobs()
                    .inNamespace(ns)
                    .resource(SnapshotJobs.prune(snapshot, schedule, operatorImage.get()))
                    .create();
            return Optional.empty();
        }
        if (!Owners.controlledBy(job, schedule.getMetadata().getUid())) {
            return Optional.of("Job " + jobName + " belongs to another object");
        }
        if (jobSucceeded(job)) {
            delete(
                    schedule,
                    snapshot,
                    "pruned " + snapshot.getMetadata().getName() + " and deleted "
                            + snapshot.getStatus().getArtifact().getUri());
            client.resource(job)
                    .withPropagationPolicy(DeletionPropagation.BACKGROUND)
                    .delete();
            return Optional.empty();
        }
        if (jobFailed(job)) {
            return Optional.of("prune Job " + jobName + " failed (see its Pod's termination message); "
                    + "delete the Job to retry");
        }
        return Optional.empty();
    }

    private void markForPruning(EtcdSnapshot snapshot) {
        Map<String, String> labels = snapshot.getMetadata().getLabels();
        if (labels != null && PRUNE.equals(labels.get(LABEL_RETENTION))) {
            return;
        }
        client.resources(EtcdSnapshot.class)
                .inNamespace(snapshot.getMetadata().getNamespace())
                .withName(snapshot.getMetadata().getName())
                .edit(s -> {
                    s.getMetadata().getLabels().put(LABEL_RETENTION, PRUNE);
                    return s;
                });
    }

    private void delete(EtcdSnapshotSchedule schedule, EtcdSnapshot snapshot, String message) {
        client.resources(EtcdSnapshot.class)
                .inNamespace(snapshot.getMetadata().getNamespace())
                .withName(snapshot.getMetadata().getName())
                .delete();
        events.normal(schedule, Reason.SNAPSHOT_PRUNED.reason(), message);
    }

    private static boolean jobSucceeded(Job job) {
        return job.getStatus() != null
                && job.getStatus().getSucceeded() != null
                && job.getStatus().getSucceeded() > 0;
    }

    private static boolean jobFailed(Job job) {
        return job.getStatus() != null
                && job.getStatus().getConditions() != null
                && job.getStatus().getConditions().stream()
                        .anyMatch(c -> "Failed".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private void writeStatus(EtcdSnapshotSchedule schedule, EtcdSnapshotScheduleStatus status) {
        EtcdSnapshotScheduleStatus before =
                schedule.getStatus() == null ? new EtcdSnapshotScheduleStatus() : schedule.getStatus();
        if (Objects.equals(before.getLastScheduleTime(), status.getLastScheduleTime())
                && Objects.equals(before.getLastSuccessfulTime(), status.getLastSuccessfulTime())
                && Objects.equals(before.getLastFailure(), status.getLastFailure())
                && Objects.equals(before.getActive(), status.getActive())
                && Objects.equals(before.getObservedGeneration(), status.getObservedGeneration())
                && Conditions.sameMeaning(before.getConditions(), status.getConditions())) {
            return;
        }
        schedule.setStatus(status);
        client.resource(schedule).updateStatus();
    }

    private static Instant created(String timestamp, Instant fallback) {
        return timestamp == null ? fallback : Instant.parse(timestamp);
    }
}
