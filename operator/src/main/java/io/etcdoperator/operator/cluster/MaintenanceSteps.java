package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.DefragMemberStatus;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.api.v1alpha2.EtcdDefragStatus;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.etcd.Alarm;
import io.etcdoperator.etcd.Compaction;
import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.operator.cluster.StepExecutor.Outcome;
import io.etcdoperator.operator.defrag.DefragRuns;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.planner.DefragRun;
import io.etcdoperator.operator.planner.ObservedMember;
import io.etcdoperator.operator.planner.Step;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.status.Conditions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Carries out the maintenance steps: a defrag run's start, member and finish, and NOSPACE defragment and disarm. */
final class MaintenanceSteps {

    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceSteps.class);
    /** One member's Defragment; etcd rewrites the whole backend, so this is far above the connection's timeout. */
    static final Duration MEMBER_TIMEOUT = Duration.ofMinutes(2);

    private final DefragRuns runs;
    private final EventRecorder events;
    private final Clock clock;
    private final SpaceRecoveries spaceRecoveries;

    MaintenanceSteps(DefragRuns runs, EventRecorder events, Clock clock, SpaceRecoveries spaceRecoveries) {
        this.runs = runs;
        this.events = events;
        this.clock = clock;
        this.spaceRecoveries = spaceRecoveries;
    }

    Outcome start(EtcdCluster cluster, Step.StartDefrag s) {
        EtcdDefrag run = runs.get(cluster.getMetadata().getNamespace(), s.run());
        if (run == null) {
            return Outcome.of(s.reason(), "defrag " + s.run() + " is gone", StepExecutor.SOON);
        }
        Instant now = clock.instant();
        EtcdDefragStatus status = statusOf(run);
        List<DefragMemberStatus> members = new ArrayList<>();
        for (Step.DefragStart m : s.members()) {
            DefragMemberStatus entry = new DefragMemberStatus();
            entry.setName(m.member());
            entry.setRole(m.leader() ? DefragMemberStatus.ROLE_LEADER : DefragMemberStatus.ROLE_FOLLOWER);
            entry.setDbSizeBefore(m.dbSize());
            entry.setOutcome(m.wanted() ? DefragMemberStatus.OUTCOME_PENDING : DefragMemberStatus.OUTCOME_SKIPPED);
            if (!m.wanted()) {
                entry.setReason(Reason.BELOW_THRESHOLD.reason());
                entry.setFinishedAt(timestamp(now));
            }
            members.add(entry);
        }
        status.setPhase(EtcdDefragStatus.PHASE_RUNNING);
        status.setStartedAt(timestamp(now));
        status.setDefragmented(0);
        status.setMembers(members);
        status.setConditions(Conditions.set(
                status.getConditions(),
                Conditions.READY,
                false,
                Reason.DEFRAG_STARTED.reason(),
                "defragmenting " + wanted(s) + " of " + s.members().size() + " members",
                run.getMetadata().getGeneration(),
                now));
        runs.writeStatus(run);
        String message = "defrag " + s.run() + " started: " + wanted(s) + " of "
                + s.members().size() + " members over the rule's threshold";
        events.normal(run, Reason.DEFRAG_STARTED, message);
        LOG.atInfo()
                .addKeyValue("cluster", cluster.getMetadata().getName())
                .addKeyValue("defrag", s.run())
                .log(message);
        return Outcome.of(s.reason(), message, StepExecutor.SOON);
    }

    Outcome defragment(EtcdCluster cluster, Step.Defragment s, ClusterObserver.Observation observation) {
        EtcdAdmin etcd = observation.etcd().orElseThrow();
        EtcdMember member = observation.member(s.member()).orElseThrow();
        Optional<EndpointStatus> observed =
                observation.cluster().byName(s.member()).flatMap(ObservedMember::endpoint);
        long before = observed.map(EndpointStatus::dbSize).orElse(0L);
        if (s.run().isEmpty()) {
            compactFirst(cluster, etcd);
        }
        Instant started = clock.instant();
        try {
            etcd.defragment(Names.clientUrl(member), MEMBER_TIMEOUT);
        } catch (EtcdException e) {
            return s.run().isPresent()
                    ? failed(cluster, s, e)
                    : Outcome.problem(
                            Reason.SPACE_QUOTA_EXCEEDED,
                            "defragment of " + s.member() + " failed: " + e.getMessage(),
                            Duration.ofSeconds(5));
        }
        long millis = Duration.between(started, clock.instant()).toMillis();
        long after = etcd.status(Names.clientUrl(member)).dbSize();
        String message = "defragmented " + s.member() + ": " + before + " -> " + after + " bytes in " + millis + " ms";
        s.run()
                .ifPresent(name -> recordMember(
                        cluster,
                        name,
                        s.member(),
                        entry -> {
                            entry.setOutcome(DefragMemberStatus.OUTCOME_DEFRAGMENTED);
                            entry.setReason(null);
                            entry.setDbSizeAfter(after);
                            entry.setReclaimedBytes(Math.max(0, before - after));
                            entry.setFinishedAt(timestamp(clock.instant()));
                            entry.setAttempts(attempts(entry) + 1);
                        },
                        message));
        if (s.run().isEmpty()) {
            spaceRecoveries.defragmented(
                    cluster, s.member(), observed.map(EndpointStatus::revision).orElse(0L));
            events.normal(cluster, Reason.SPACE_QUOTA_EXCEEDED, message + " (NOSPACE recovery)");
        }
        LOG.atInfo()
                .addKeyValue("cluster", cluster.getMetadata().getName())
                .addKeyValue("member", s.member())
                .addKeyValue("dbSizeBefore", before)
                .addKeyValue("dbSizeAfter", after)
                .addKeyValue("millis", millis)
                .log("defragmented");
        return Outcome.of(s.reason(), message, StepExecutor.SOON);
    }

    /** A NOSPACE recovery compacts first: defragmenting frees only what compaction released. */
    private void compactFirst(EtcdCluster cluster, EtcdAdmin etcd) {
        Compaction compaction = etcd.compact();
        if (!compaction.alreadyCompacted()) {
            events.normal(
                    cluster,
                    Reason.KEYSPACE_COMPACTED,
                    "NOSPACE: compacted the keyspace to revision " + compaction.revision());
            LOG.atInfo()
                    .addKeyValue("cluster", cluster.getMetadata().getName())
                    .addKeyValue("revision", compaction.revision())
                    .log("compacted before defragment");
        }
    }

    /** Counts the attempt; the member fails for good after {@link DefragRun#MAX_ATTEMPTS}. */
    private Outcome failed(EtcdCluster cluster, Step.Defragment s, EtcdException e) {
        String message = "defragment of " + s.member() + " failed: " + e.getMessage();
        recordMember(
                cluster,
                s.run().get(),
                s.member(),
                entry -> {
                    int attempts = attempts(entry) + 1;
                    entry.setAttempts(attempts);
                    entry.setReason(Reason.RPC_ERROR.reason());
                    if (attempts >= DefragRun.MAX_ATTEMPTS) {
                        entry.setOutcome(DefragMemberStatus.OUTCOME_FAILED);
                        entry.setFinishedAt(timestamp(clock.instant()));
                    }
                },
                null);
        EtcdDefrag run = runs.get(cluster.getMetadata().getNamespace(), s.run().get());
        if (run != null) {
            events.warning(run, Reason.DEFRAG_FAILED, message);
        }
        LOG.atWarn()
                .addKeyValue("cluster", cluster.getMetadata().getName())
                .addKeyValue("member", s.member())
                .addKeyValue("error", e.getMessage())
                .log("defragment failed");
        return Outcome.problem(Reason.DEFRAG_FAILED, message, Duration.ofSeconds(5));
    }

    Outcome finish(EtcdCluster cluster, Step.FinishDefrag s) {
        EtcdDefrag run = runs.get(cluster.getMetadata().getNamespace(), s.run());
        if (run == null) {
            return Outcome.of(s.reason(), "defrag " + s.run() + " is gone", StepExecutor.SOON);
        }
        Instant now = clock.instant();
        EtcdDefragStatus status = statusOf(run);
        boolean deadline = s.detail().contains("DeadlineExceeded");
        if (status.getMembers() != null) {
            for (DefragMemberStatus m : status.getMembers()) {
                if (DefragMemberStatus.OUTCOME_PENDING.equals(m.getOutcome())) {
                    m.setOutcome(s.failed() ? DefragMemberStatus.OUTCOME_FAILED : DefragMemberStatus.OUTCOME_SKIPPED);
                    m.setReason(deadline ? Reason.DEADLINE_EXCEEDED.reason() : "RunEnded");
                    m.setFinishedAt(timestamp(now));
                }
            }
        }
        int done = defragmented(status);
        long reclaimed = status.getMembers() == null
                ? 0
                : status.getMembers().stream()
                        .mapToLong(m -> m.getReclaimedBytes() == null ? 0 : m.getReclaimedBytes())
                        .sum();
        status.setDefragmented(done);
        status.setPhase(s.failed() ? EtcdDefragStatus.PHASE_FAILED : EtcdDefragStatus.PHASE_COMPLETE);
        status.setCompletedAt(timestamp(now));
        String reason =
                deadline ? Reason.DEADLINE_EXCEEDED.reason() : s.reason().reason();
        String message = (s.failed() ? "failed: " + s.detail() + "; " : "complete: ") + done
                + " member(s) defragmented, " + reclaimed + " bytes reclaimed";
        status.setConditions(Conditions.set(
                status.getConditions(),
                Conditions.READY,
                !s.failed(),
                reason,
                message,
                run.getMetadata().getGeneration(),
                now));
        runs.writeStatus(run);
        if (s.failed()) {
            events.warning(run, s.reason(), message);
        } else {
            events.normal(run, s.reason(), message);
        }
        LOG.atInfo()
                .addKeyValue("cluster", cluster.getMetadata().getName())
                .addKeyValue("defrag", s.run())
                .addKeyValue("phase", status.getPhase())
                .log(message);
        return Outcome.of(s.reason(), "defrag " + s.run() + " " + message, StepExecutor.SOON);
    }

    Outcome disarm(EtcdCluster cluster, Step.DisarmSpaceAlarms s, EtcdAdmin etcd) {
        for (Alarm alarm : s.alarms()) {
            etcd.disarm(alarm);
        }
        spaceRecoveries.forget(cluster);
        String message = "disarmed " + s.alarms() + ": every voter has room under its quota again";
        events.normal(cluster, s.reason(), message);
        LOG.atInfo().addKeyValue("cluster", cluster.getMetadata().getName()).log(message);
        return Outcome.of(s.reason(), message, StepExecutor.SOON);
    }

    private void recordMember(
            EtcdCluster cluster,
            String runName,
            String member,
            Consumer<DefragMemberStatus> change,
            String eventMessage) {
        EtcdDefrag run = runs.get(cluster.getMetadata().getNamespace(), runName);
        if (run == null) {
            return;
        }
        EtcdDefragStatus status = statusOf(run);
        Optional<DefragMemberStatus> entry = Optional.ofNullable(status.getMembers()).orElse(List.of()).stream()
                .filter(m -> member.equals(m.getName()))
                .findFirst();
        entry.ifPresent(change);
        status.setDefragmented(defragmented(status));
        runs.writeStatus(run);
        if (eventMessage != null) {
            events.normal(run, Reason.MEMBER_DEFRAGMENTED, eventMessage);
        }
    }

    private static EtcdDefragStatus statusOf(EtcdDefrag run) {
        if (run.getStatus() == null) {
            run.setStatus(new EtcdDefragStatus());
        }
        return run.getStatus();
    }

    private static int defragmented(EtcdDefragStatus status) {
        return (int) Optional.ofNullable(status.getMembers()).orElse(List.of()).stream()
                .filter(m -> DefragMemberStatus.OUTCOME_DEFRAGMENTED.equals(m.getOutcome()))
                .count();
    }

    private static int attempts(DefragMemberStatus entry) {
        return entry.getAttempts() == null ? 0 : entry.getAttempts();
    }

    private static long wanted(Step.StartDefrag s) {
        return s.members().stream().filter(Step.DefragStart::wanted).count();
    }

    private static String timestamp(Instant now) {
        return now.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
