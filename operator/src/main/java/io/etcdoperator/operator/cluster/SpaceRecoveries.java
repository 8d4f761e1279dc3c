package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The voters this operator process defragmented while a cluster's NOSPACE alarm stands, with the keyspace revision
 * each reported then. etcd's in-use estimate counts
 * the pages a compaction freed only after the member's next write, and NOSPACE refuses writes, so the planner cannot
 * read "defragmented already" from etcd; it reads it here. Lost on restart: at most one extra defragment per voter.
 */
final class SpaceRecoveries implements ClusterMemory {

    private final Map<String, Map<String, Long>> defragmented = new ConcurrentHashMap<>();

    Map<String, Long> defragmented(EtcdCluster cluster) {
        return Map.copyOf(defragmented.getOrDefault(key(cluster), Map.of()));
    }

    void defragmented(EtcdCluster cluster, String member, long revision) {
        defragmented
                .computeIfAbsent(key(cluster), k -> new ConcurrentHashMap<>())
                .put(member, revision);
    }

    /** The alarm is gone (disarmed, or by a person) or the cluster is: the next NOSPACE starts afresh. */
    @Override
    public void forget(String namespace, String name) {
        defragmented.remove(key(namespace, name));
    }

    void forget(EtcdCluster cluster) {
        forget(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName());
    }

    private static String key(EtcdCluster cluster) {
        return key(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName());
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
