package io.etcdoperator.operator.defrag;

import io.etcdoperator.api.v1alpha2.DefragMemberStatus;
import io.etcdoperator.api.v1alpha2.DefragRule;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.api.v1alpha2.EtcdDefragStatus;
import io.etcdoperator.operator.planner.DefragCriteria;
import io.etcdoperator.operator.planner.DefragRun;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** Reads a cluster's EtcdDefrag runs for the planner and writes what the cluster's steps did to them. */
public final class DefragRuns {

    /** Oldest first: runs of one cluster are served in the order they were created. */
    static final Comparator<EtcdDefrag> OLDEST_FIRST = Comparator.comparing(
                    (EtcdDefrag d) -> d.getMetadata().getCreationTimestamp())
            .thenComparing(d -> d.getMetadata().getName());

    private final KubernetesClient client;

    public DefragRuns(KubernetesClient client) {
        this.client = client;
    }

    /** Unfinished, not deleted runs naming this cluster, oldest first. */
    public List<EtcdDefrag> unfinished(String namespace, String cluster) {
        return unfinished(
                client.resources(EtcdDefrag.class).inNamespace(namespace).list().getItems(), cluster);
    }

    private static List<EtcdDefrag> unfinished(List<EtcdDefrag> inNamespace, String cluster) {
        return inNamespace.stream()
                .filter(DefragRuns::open)
                .filter(d -> d.getSpec() != null
                        && d.getSpec().getClusterRef() != null
                        && cluster.equals(d.getSpec().getClusterRef().getName()))
                .sorted(OLDEST_FIRST)
                .toList();
    }

    /** Not being deleted, and neither Complete nor Failed: a run a cluster's steps may still write to. */
    public static boolean open(EtcdDefrag d) {
        return d.getMetadata().getDeletionTimestamp() == null && !terminal(d);
    }

    /** The oldest unfinished run of {@code cluster} among {@code inNamespace} (its namespace's EtcdDefrags). */
    public static Optional<DefragRun> current(EtcdCluster cluster, List<EtcdDefrag> inNamespace, Instant now) {
        return unfinished(inNamespace, cluster.getMetadata().getName()).stream()
                .findFirst()
                .map(d -> toRun(d, now));
    }

    static boolean terminal(EtcdDefrag d) {
        String phase = d.getStatus() == null ? null : d.getStatus().getPhase();
        return EtcdDefragStatus.PHASE_COMPLETE.equals(phase) || EtcdDefragStatus.PHASE_FAILED.equals(phase);
    }

    static DefragRun toRun(EtcdDefrag d, Instant now) {
        EtcdDefragStatus status = d.getStatus();
        boolean running = status != null
                && EtcdDefragStatus.PHASE_RUNNING.equals(status.getPhase())
                && status.getStartedAt() != null;
        Optional<Instant> started = running ? Optional.of(Instant.parse(status.getStartedAt())) : Optional.empty();
        Map<String, DefragRun.Progress> members = new LinkedHashMap<>();
        if (running && status.getMembers() != null) {
            for (DefragMemberStatus m : status.getMembers()) {
                members.put(
                        m.getName(),
                        new DefragRun.Progress(
                                m.getOutcome(),
                                DefragMemberStatus.ROLE_LEADER.equals(m.getRole()),
                                m.getAttempts() == null ? 0 : m.getAttempts()));
            }
        }
        boolean overdue =
                started.map(s -> now.isAfter(s.plus(DefragRun.DEADLINE))).orElse(false);
        return new DefragRun(d.getMetadata().getName(), criteria(d.getSpec().getRule()), started, overdue, members);
    }

    /** An absent or empty rule means freeSpaceAbove 200Mi; minReclaim defaults to 32Mi. */
    public static DefragCriteria criteria(DefragRule rule) {
        if (rule != null && Boolean.TRUE.equals(rule.getAll())) {
            return DefragCriteria.ALL;
        }
        long free = rule == null || rule.getFreeSpaceAbove() == null
                ? DefragCriteria.DEFAULT_FREE_SPACE_ABOVE
                : bytes(rule.getFreeSpaceAbove());
        OptionalInt percent = rule == null || rule.getQuotaUsageAbove() == null
                ? OptionalInt.empty()
                : OptionalInt.of(Integer.parseInt(
                        rule.getQuotaUsageAbove().replace("%", "").trim()));
        long min = rule == null || rule.getMinReclaim() == null
                ? DefragCriteria.DEFAULT_MIN_RECLAIM
                : bytes(rule.getMinReclaim());
        return new DefragCriteria(false, free, percent, min);
    }

    private static long bytes(Quantity q) {
        return q.getNumericalAmount().longValue();
    }

    public EtcdDefrag get(String namespace, String name) {
        return client.resources(EtcdDefrag.class)
                .inNamespace(namespace)
                .withName(name)
                .get();
    }

    /**
     * Replaces the run's status, guarded by the resourceVersion it was read at: the run's own reconciler and the
     * cluster's steps both write it, and a 409 makes the later writer look again instead of undoing the other.
     */
    public void writeStatus(EtcdDefrag run) {
        client.resource(run).updateStatus();
    }
}
