package io.etcdoperator.operator.defrag;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.api.v1alpha2.EtcdDefragStatus;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass over an EtcdDefrag outside its cluster's planner: while it waits, say why (no such cluster, an earlier
 * run, the cluster is busy); once it is over, delete it after ttlSecondsAfterFinished. Starting it and defragmenting
 * members is the cluster planner's, in the cluster's single slot.
 */
public class DefragReconcile {

    private static final Logger LOG = LoggerFactory.getLogger(DefragReconcile.class);
    static final Duration WAITING_RECHECK = Duration.ofSeconds(10);
    static final Duration RUNNING_RECHECK = Duration.ofSeconds(60);

    private final KubernetesClient client;
    private final DefragRuns runs;
    private final EventRecorder events;
    private final Clock clock;

    public DefragReconcile(KubernetesClient client, EventRecorder events, Clock clock) {
        this.client = client;
        this.runs = new DefragRuns(client);
        this.events = events;
        this.clock = clock;
    }

    public Optional<Duration> reconcile(String namespace, String name) {
        EtcdDefrag run = runs.get(namespace, name);
        if (run == null || run.getMetadata().getDeletionTimestamp() != null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (DefragRuns.terminal(run)) {
            return expire(run, now);
        }
        EtcdDefragStatus status = run.getStatus() == null ? new EtcdDefragStatus() : run.getStatus();
        if (EtcdDefragStatus.PHASE_RUNNING.equals(status.getPhase())) {
            return Optional.of(RUNNING_RECHECK);
        }
        Waiting waiting = waiting(run);
        List<Condition> conditions = Conditions.set(
                status.getConditions(),
                Conditions.READY,
                false,
                waiting.reason().reason(),
                waiting.message(),
                run.getMetadata().getGeneration(),
                now);
        boolean changed = !EtcdDefragStatus.PHASE_PENDING.equals(status.getPhase())
                || !Conditions.sameMeaning(status.getConditions(), conditions);
        if (changed) {
            boolean first = status.getPhase() == null;
            status.setPhase(EtcdDefragStatus.PHASE_PENDING);
            status.setConditions(conditions);
            run.setStatus(status);
            try {
                runs.writeStatus(run);
            } catch (KubernetesClientException e) {
                if (e.getCode() == 409) {
                    return Optional.of(Duration.ofSeconds(1)); // the cluster started it meanwhile; look again
                }
                throw e;
            }
            if (first || waiting.reason() == Reason.CLUSTER_NOT_FOUND) {
                events.normal(run, waiting.reason(), waiting.message());
            }
            LOG.atInfo()
                    .addKeyValue("defrag", name)
                    .addKeyValue("reason", waiting.reason().reason())
                    .log(waiting.message());
        }
        return Optional.of(WAITING_RECHECK);
    }

    record Waiting(Reason reason, String message) {}

    private Waiting waiting(EtcdDefrag run) {
        String namespace = run.getMetadata().getNamespace();
        String clusterName = run.getSpec().getClusterRef().getName();
        EtcdCluster cluster = client.resources(EtcdCluster.class)
                .inNamespace(namespace)
                .withName(clusterName)
                .get();
        if (cluster == null) {
            return new Waiting(Reason.CLUSTER_NOT_FOUND, "EtcdCluster " + clusterName + " does not exist");
        }
        Optional<EtcdDefrag> first =
                runs.unfinished(namespace, clusterName).stream().findFirst();
        if (first.isPresent()
                && !first.get().getMetadata().getName().equals(run.getMetadata().getName())) {
            return new Waiting(
                    Reason.WAITING_FOR_RUN,
                    "defrag " + first.get().getMetadata().getName() + " of the same cluster runs first");
        }
        String busy = cluster.getStatus() == null
                ? "not observed yet"
                : Conditions.find(cluster.getStatus().getConditions(), Conditions.PROGRESSING)
                        .map(c -> c.getReason() + ": " + c.getMessage())
                        .orElse("not observed yet");
        return new Waiting(
                Reason.WAITING_FOR_CLUSTER,
                "starts once every voter is ready and no other step is in flight" + " (cluster: " + busy + ")");
    }

    /** Terminal phases never change; the object goes ttlSecondsAfterFinished after completedAt, if that is set. */
    private Optional<Duration> expire(EtcdDefrag run, Instant now) {
        Integer ttl = run.getSpec().getTtlSecondsAfterFinished();
        String completed = run.getStatus().getCompletedAt();
        if (ttl == null || completed == null) {
            return Optional.empty();
        }
        Instant due = Instant.parse(completed).plusSeconds(ttl);
        if (now.isBefore(due)) {
            return Optional.of(Duration.between(now, due).plusMillis(500));
        }
        client.resource(run).delete();
        LOG.atInfo()
                .addKeyValue("defrag", run.getMetadata().getName())
                .addKeyValue("ttlSecondsAfterFinished", ttl)
                .log("deleted finished defrag");
        return Optional.empty();
    }
}
