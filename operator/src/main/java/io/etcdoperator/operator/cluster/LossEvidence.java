package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.operator.planner.ObservedMember;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What earlier passes saw of each member's sign of lost data, so the planner can ask for it twice (LossProof). Kept
 * in the operator process: after a restart the proof starts over, which only delays a repair. A ready member clears.
 */
final class LossEvidence implements ClusterMemory {

    private final Map<String, Map<String, ObservedMember.Evidence>> byCluster = new ConcurrentHashMap<>();

    ObservedMember note(EtcdCluster cluster, ObservedMember member, Instant now) {
        Map<String, ObservedMember.Evidence> seen =
                byCluster.computeIfAbsent(key(cluster), k -> new ConcurrentHashMap<>());
        if (member.ready()) {
            seen.remove(member.name());
            return member;
        }
        if (member.showsLoss()) {
            int restarts = member.broken().map(ObservedMember.Broken::restarts).orElse(0);
            seen.putIfAbsent(member.name(), new ObservedMember.Evidence(now, restarts));
        }
        return member.withEvidence(Optional.ofNullable(seen.get(member.name())));
    }

    /** The member with what earlier passes saw of it, recording nothing. */
    ObservedMember seen(EtcdCluster cluster, ObservedMember member) {
        return member.withEvidence(
                Optional.ofNullable(byCluster.get(key(cluster))).map(s -> s.get(member.name())));
    }

    /** Drops what was seen of members this pass no longer lists. */
    void retain(EtcdCluster cluster, Set<String> members) {
        Optional.ofNullable(byCluster.get(key(cluster)))
                .ifPresent(seen -> seen.keySet().retainAll(members));
    }

    @Override
    public void forget(String namespace, String name) {
        byCluster.remove(namespace + "/" + name);
    }

    private static String key(EtcdCluster cluster) {
        return cluster.getMetadata().getNamespace() + "/"
                + cluster.getMetadata().getName();
    }
}
