package io.etcdoperator.operator.reads;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.defrag.DefragRuns;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Optional;

/**
 * A pass on the API server that takes a namespace's EtcdDefrags from the informer's cache while it holds no unfinished
 * run there, and everything else from the API server. A pass writes only to a run it read unfinished, which it read
 * here only because the cache held it, so the cache cannot lag a write of ours; a run it has not seen yet wakes the
 * cluster when it arrives (docs/concepts.md, "Cache passes").
 */
public final class CachedDefrags implements KubeReads {

    private final KubeReads apiServer;
    private final KubeReads caches;

    public CachedDefrags(KubeReads apiServer, KubeReads caches) {
        this.apiServer = apiServer;
        this.caches = caches;
    }

    @Override
    public List<EtcdDefrag> defrags(String namespace) {
        List<EtcdDefrag> cached = caches.defrags(namespace);
        return cached.stream().anyMatch(DefragRuns::open) ? apiServer.defrags(namespace) : cached;
    }

    @Override
    public Optional<EtcdCluster> cluster(String namespace, String name) {
        return apiServer.cluster(namespace, name);
    }

    @Override
    public List<EtcdMember> members(String namespace, String cluster) {
        return apiServer.members(namespace, cluster);
    }

    @Override
    public List<Pod> pods(String namespace, String cluster) {
        return apiServer.pods(namespace, cluster);
    }

    @Override
    public Optional<Pod> pod(String namespace, String name) {
        return apiServer.pod(namespace, name);
    }

    @Override
    public List<PersistentVolumeClaim> volumes(String namespace, String cluster) {
        return apiServer.volumes(namespace, cluster);
    }

    @Override
    public Optional<PersistentVolumeClaim> volume(String namespace, String name) {
        return apiServer.volume(namespace, name);
    }
}
