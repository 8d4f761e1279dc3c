package io.etcdoperator.operator.defrag;

import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.api.v1alpha2.EtcdDefragSchedule;
import io.etcdoperator.api.v1alpha2.EtcdDefragScheduleSpec;
import io.etcdoperator.api.v1alpha2.EtcdDefragScheduleStatus;
import io.etcdoperator.api.v1alpha2.EtcdDefragSpec;
import io.etcdoperator.api.v1alpha2.EtcdDefragStatus;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.Labels;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.resources.Owners;
import io.etcdoperator.operator.schedule.CronSchedule;
import io.etcdoperator.operator.schedule.RetentionPlan.Outcome;
import io.etcdoperator.operator.schedule.SchedulePlan;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass over an EtcdDefragSchedule: create the due EtcdDefrag (never while the previous one is unfinished), delete
 * what the history limit gives up, report status, and ask to be woken at the next firing. Firing and catch-up follow
 * the snapshot schedule's {@link SchedulePlan}.
 */
public class DefragScheduleReconcile {

    private static final Logger LOG = LoggerFactory.getLogger(DefragScheduleReconcile.class);
    static final int DEFAULT_HISTORY = 3;

    private final KubernetesClient client;
    private final EventRecorder events;
    private final Clock clock;

    public DefragScheduleReconcile(KubernetesClient client, EventRecorder events, Clock clock) {
        this.client = client;
        this.events = events;
        this.clock = clock;
    }

    public Optional<Duration> reconcile(String namespace, String name) {
        EtcdDefragSchedule schedule = client.resources(EtcdDefragSchedule.class)
                .inNamespace(namespace)
                .withName(name)
                .get();
        if (schedule == null || schedule.getMetadata().getDeletionTimestamp() != null) {
            return Optional.empty();
        }
        EtcdDefragScheduleSpec spec = schedule.getSpec();
        Instant now = clock.instant();
        CronSchedule cron;
        ZoneId zone;
        try {
            cron = CronSchedule.parse(spec.getSchedule());
            zone = spec.getTimeZone() == null || spec.getTimeZone().isBlank()
                    ? ZoneOffset.UTC
                    : ZoneId.of(spec.getTimeZone());
            cron.next(now.atZone(zone));
        } catch (IllegalArgumentException | DateTimeException e) {
            writeStatus(
                    schedule,
                    status(schedule, List.of(), Optional.empty(), Reason.INVALID_SCHEDULE, e.getMessage(), now));
            return Optional.empty(); // the next spec change brings the next pass
        }
        List<EtcdDefrag> owned = runs(schedule);
        int keep =
                spec.getSuccessfulRunsHistoryLimit() == null ? DEFAULT_HISTORY : spec.getSuccessfulRunsHistoryLimit();
        boolean suspended = Boolean.TRUE.equals(spec.getSuspend());
        var decision = SchedulePlan.decide(new SchedulePlan.Observation(
                cron,
                zone,
                suspended,
                Instant.parse(schedule.getMetadata().getCreationTimestamp()),
                Optional.ofNullable(schedule.getStatus())
                        .map(EtcdDefragScheduleStatus::getLastScheduleTime)
                        .map(Instant::parse),
                now,
                owned.stream().map(DefragScheduleReconcile::planned).toList(),
                Optional.of(keep),
                Optional.empty()));
        if (decision.create()) {
            owned.add(create(schedule, decision.slot().orElseThrow()));
        } else if (decision.slot().isPresent()) {
            events.normal(
                    schedule,
                    Reason.WAITING_FOR_RUN,
                    "the previous defrag has not finished; skipping the firing at "
                            + decision.slot().get());
        }
        prune(namespace, decision.prune(), owned);
        Reason reason = suspended ? Reason.SUSPENDED : Reason.SCHEDULED;
        String message = suspended ? "suspended; no defrags are created" : "next defrag at " + decision.nextFiring();
        writeStatus(schedule, status(schedule, owned, decision.slot(), reason, message, now));
        return Optional.of(decision.recheck());
    }

    /** The finished runs beyond the history limit go; {@code owned} then lists what is left. */
    private void prune(String namespace, List<String> pruned, List<EtcdDefrag> owned) {
        for (String name : pruned) {
            client.resources(EtcdDefrag.class)
                    .inNamespace(namespace)
                    .withName(name)
                    .delete();
            owned.removeIf(d -> d.getMetadata().getName().equals(name));
        }
    }

    private List<EtcdDefrag> runs(EtcdDefragSchedule schedule) {
        return new ArrayList<>(client
                .resources(EtcdDefrag.class)
                .inNamespace(schedule.getMetadata().getNamespace())
                .withLabel(EtcdDefragSchedule.LABEL_SCHEDULE, Names.labelOf(schedule))
                .list()
                .getItems()
                .stream()
                .filter(d -> Owners.controlledBy(d, schedule.getMetadata().getUid()))
                .filter(d -> d.getMetadata().getDeletionTimestamp() == null)
                .toList());
    }

    static SchedulePlan.Snapshot planned(EtcdDefrag d) {
        String phase = d.getStatus() == null ? null : d.getStatus().getPhase();
        Outcome outcome = EtcdDefragStatus.PHASE_COMPLETE.equals(phase)
                ? Outcome.COMPLETE
                : EtcdDefragStatus.PHASE_FAILED.equals(phase) ? Outcome.FAILED : Outcome.RUNNING;
        return new SchedulePlan.Snapshot(
                d.getMetadata().getName(), Instant.parse(d.getMetadata().getCreationTimestamp()), outcome, false);
    }

    private EtcdDefrag create(EtcdDefragSchedule schedule, Instant slot) {
        String name = SchedulePlan.snapshotName(schedule.getMetadata().getName(), slot);
        EtcdDefrag run = new EtcdDefrag();
        run.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(schedule.getMetadata().getNamespace())
                .withLabels(Map.of(
                        Labels.MANAGED_BY, Labels.MANAGER, EtcdDefragSchedule.LABEL_SCHEDULE, Names.labelOf(schedule)))
                .withOwnerReferences(Owners.controller(schedule))
                .build());
        EtcdDefragSpec spec = new EtcdDefragSpec();
        spec.setClusterRef(schedule.getSpec().getClusterRef());
        spec.setRule(schedule.getSpec().getRule());
        run.setSpec(spec);
        try {
            EtcdDefrag created = client.resource(run).create();
            events.normal(schedule, Reason.DEFRAG_STARTED, "created EtcdDefrag " + name + " for the firing at " + slot);
            LOG.atInfo()
                    .addKeyValue("schedule", schedule.getMetadata().getName())
                    .addKeyValue("defrag", name)
                    .log("scheduled defrag created");
            return created;
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
            return run; // the deterministic name makes a repeated firing a no-op
        }
    }

    private static EtcdDefragScheduleStatus status(
            EtcdDefragSchedule schedule,
            List<EtcdDefrag> owned,
            Optional<Instant> slot,
            Reason reason,
            String message,
            Instant now) {
        EtcdDefragScheduleStatus before =
                schedule.getStatus() == null ? new EtcdDefragScheduleStatus() : schedule.getStatus();
        EtcdDefragScheduleStatus after = new EtcdDefragScheduleStatus();
        after.setLastScheduleTime(slot.map(DefragScheduleReconcile::time).orElse(before.getLastScheduleTime()));
        after.setActive(SchedulePlan.active(
                owned.stream().map(DefragScheduleReconcile::planned).toList()));
        Optional<String> lastSuccess = owned.stream()
                .filter(d -> planned(d).outcome() == Outcome.COMPLETE)
                .map(d -> d.getStatus().getCompletedAt())
                .filter(Objects::nonNull)
                .max(Comparator.naturalOrder());
        after.setLastSuccessfulTime(lastSuccess.orElse(before.getLastSuccessfulTime()));
        after.setObservedGeneration(schedule.getMetadata().getGeneration());
        boolean valid = reason != Reason.INVALID_SCHEDULE;
        after.setConditions(Conditions.set(
                before.getConditions(),
                Conditions.READY,
                valid,
                reason.reason(),
                message,
                schedule.getMetadata().getGeneration(),
                now));
        return after;
    }

    private void writeStatus(EtcdDefragSchedule schedule, EtcdDefragScheduleStatus status) {
        EtcdDefragScheduleStatus before =
                schedule.getStatus() == null ? new EtcdDefragScheduleStatus() : schedule.getStatus();
        if (Objects.equals(before.getLastScheduleTime(), status.getLastScheduleTime())
                && Objects.equals(before.getLastSuccessfulTime(), status.getLastSuccessfulTime())
                && Objects.equals(before.getActive(), status.getActive())
                && Objects.equals(before.getObservedGeneration(), status.getObservedGeneration())
                && Conditions.sameMeaning(before.getConditions(), status.getConditions())) {
            return;
        }
        schedule.setStatus(status);
        client.resource(schedule).updateStatus();
    }

    private static String time(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
