package io.etcdoperator.operator.informer;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * An informer cache that keeps less of each object: {@code metadata.managedFields} is dropped everywhere (as nested
 * maps it was about half of the operator's live heap), {@link #metadataOnly} keeps only what maps an object to its
 * owner (caches that only wake a reconciler), {@link #memberPods} what a cache pass reads. What is kept has its empty
 * lists and maps shared ({@link LeanCollections}). See docs/benchmarks.md.
 */
public final class LeanItemStore<R extends HasMetadata> extends BasicItemStore<R> {

    private final UnaryOperator<R> kept;

    /** Whole objects without their managedFields (an update sent from one leaves the server's own alone). */
    public LeanItemStore() {
        this(UnaryOperator.identity());
    }

    private LeanItemStore(UnaryOperator<R> kept) {
        super(Cache::metaNamespaceKeyFunc);
        this.kept = kept;
    }

    /**
     * Only what maps an object to the resource it wakes and tells versions apart (name, namespace, uid, labels, owner
     * references, resourceVersion, generation, deletion), for an event source whose objects no one reads. Annotations
     * go too: at 1000 clusters each kept Pod annotation costs megabytes.
     */
    public static <R extends HasMetadata> LeanItemStore<R> metadataOnly(Supplier<R> empty) {
        return new LeanItemStore<>(full -> {
            ObjectMeta meta = full.getMetadata();
            R copy = empty.get();
            copy.setMetadata(new ObjectMetaBuilder()
                    .withName(meta.getName())
                    .withNamespace(meta.getNamespace())
                    .withUid(meta.getUid())
                    .withLabels(meta.getLabels())
                    .withOwnerReferences(meta.getOwnerReferences())
                    .withResourceVersion(meta.getResourceVersion())
                    .withGeneration(meta.getGeneration())
                    .withDeletionTimestamp(meta.getDeletionTimestamp())
                    .build());
            return copy;
        });
    }

    /**
     * Member Pods as a pass reads them: whole metadata and status, and of the spec only the node and each container's
     * name, image, command and args (volumes, probes, env and resources were about two thirds of a cached Pod).
     * {@code LeanPodsTest} checks every judgement a pass makes of a Pod gives the same answer on what is kept.
     */
    public static LeanItemStore<Pod> memberPods() {
        return new LeanItemStore<>(full -> {
            PodSpec spec = full.getSpec();
            if (spec == null) {
                return full;
            }
            Pod kept = new Pod();
            kept.setApiVersion(full.getApiVersion());
            kept.setKind(full.getKind());
            kept.setMetadata(full.getMetadata());
            kept.setStatus(full.getStatus());
            kept.setSpec(new PodSpecBuilder()
                    .withNodeName(spec.getNodeName())
                    .withContainers(commands(spec.getContainers()))
                    .withInitContainers(commands(spec.getInitContainers()))
                    .build());
            return kept;
        });
    }

    private static List<Container> commands(List<Container> containers) {
        return containers == null
                ? null
                : containers.stream()
                        .map(c -> new ContainerBuilder()
                                .withName(c.getName())
                                .withImage(c.getImage())
                                .withCommand(c.getCommand())
                                .withArgs(c.getArgs())
                                .build())
                        .toList();
    }

    @Override
    public R put(String key, R obj) {
        if (obj.getMetadata() != null) {
            obj.getMetadata().setManagedFields(null);
        }
        R lean = kept.apply(obj);
        LeanCollections.compact(lean);
        return super.put(key, lean);
    }
}
