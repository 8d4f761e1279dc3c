package io.etcdoperator.operator.reads;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.informer.ObjectCopies;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * {@link KubeReads} from the cluster controller's informers. Objects are copies: a pass changes what it read (a status
 * it is about to write), and the caches are shared. Pods and claims are copied by their builders (several times
 * cheaper than the JSON round trip our own kinds take, docs/benchmarks.md): maps, lists and nested objects are new,
 * but Quantity values and additionalProperties values are shared, so a pass replaces those, never sets into them.
 * A cluster's objects are found through an index on its label.
 */
public final class InformerReads implements KubeReads {

    static final String BY_CLUSTER = "by-cluster";

    private final IndexerResourceCache<EtcdCluster> clusters;
    private final Supplier<Optional<IndexerResourceCache<EtcdMember>>> memberObjects;
    private final InformerEventSource<EtcdMember, EtcdCluster> members;
    private final InformerEventSource<Pod, EtcdCluster> pods;
    private final InformerEventSource<PersistentVolumeClaim, EtcdCluster> volumes;
    private final InformerEventSource<EtcdDefrag, EtcdCluster> defrags;

    /** {@code members}: this controller's metadata-only cache; {@code memberObjects}: the member controller's. */
    public InformerReads(
            IndexerResourceCache<EtcdCluster> clusters,
            InformerEventSource<EtcdMember, EtcdCluster> members,
            Supplier<Optional<IndexerResourceCache<EtcdMember>>> memberObjects,
            InformerEventSource<Pod, EtcdCluster> pods,
            InformerEventSource<PersistentVolumeClaim, EtcdCluster> volumes,
            InformerEventSource<EtcdDefrag, EtcdCluster> defrags) {
        this.clusters = clusters;
        this.memberObjects = memberObjects;
        this.members = members;
        this.pods = pods;
        this.volumes = volumes;
        this.defrags = defrags;
    }

    /** The index every labelled source needs, added before the informers start. */
    public static <R extends HasMetadata> Map<String, Function<R, List<String>>> clusterIndex() {
        return Map.of(
                BY_CLUSTER,
                r -> Optional.ofNullable(r.getMetadata().getLabels())
                        .map(l -> l.get(EtcdOperatorApi.LABEL_CLUSTER))
                        .map(c -> List.of(key(r.getMetadata().getNamespace(), c)))
                        .orElse(List.of()));
    }

    private static String key(String namespace, String cluster) {
        return namespace + "/" + cluster;
    }

    @Override
    public Optional<EtcdCluster> cluster(String namespace, String name) {
        return clusters.get(new ResourceID(name, namespace)).map(ObjectCopies::of);
    }

    /**
     * The member controller's objects (its primary cache, the one whole copy of each EtcdMember), when they are the
     * versions this controller's own cache (metadata only, the one that woke it) has seen; else the API server's.
     */
    @Override
    public List<EtcdMember> members(String namespace, String cluster) {
        IndexerResourceCache<EtcdMember> objects = memberObjects
                .get()
                .orElseThrow(() -> new CachePass.NeedsApiServer("EtcdMember objects not cached yet"));
        List<EtcdMember> whole = objects.byIndex(BY_CLUSTER, key(namespace, cluster));
        if (!sameVersions(whole, members.byIndex(BY_CLUSTER, key(namespace, cluster)))) {
            CachePass.needsApiServer("the EtcdMember caches differ");
        }
        return whole.stream().map(ObjectCopies::of).toList();
    }

    /** Two caches hold the same objects by name at the same resourceVersions: one has seen what woke the other. */
    public static boolean sameVersions(List<? extends HasMetadata> one, List<? extends HasMetadata> other) {
        return versions(one).equals(versions(other));
    }

    private static Map<String, String> versions(List<? extends HasMetadata> objects) {
        return objects.stream()
                .collect(Collectors.toMap(
                        o -> o.getMetadata().getName(),
                        o -> String.valueOf(o.getMetadata().getResourceVersion())));
    }

    @Override
    public List<Pod> pods(String namespace, String cluster) {
        return pods.byIndex(BY_CLUSTER, key(namespace, cluster)).stream()
                .map(InformerReads::copy)
                .toList();
    }

    /** Only Pods with a cluster label are cached: one without it is "not seen", and the pass asks the API server. */
    @Override
    public Optional<Pod> pod(String namespace, String name) {
        return pods.get(new ResourceID(name, namespace)).map(InformerReads::copy);
    }

    @Override
    public List<PersistentVolumeClaim> volumes(String namespace, String cluster) {
        return volumes.byIndex(BY_CLUSTER, key(namespace, cluster)).stream()
                .map(InformerReads::copy)
                .toList();
    }

    @Override
    public Optional<PersistentVolumeClaim> volume(String namespace, String name) {
        return volumes.get(new ResourceID(name, namespace)).map(InformerReads::copy);
    }

    @Override
    public List<EtcdDefrag> defrags(String namespace) {
        return defrags.list(namespace, d -> true).map(ObjectCopies::of).toList();
    }

    static Pod copy(Pod cached) {
        return new PodBuilder(cached).build();
    }

    static PersistentVolumeClaim copy(PersistentVolumeClaim cached) {
        return new PersistentVolumeClaimBuilder(cached).build();
    }
}
