package io.etcdoperator.operator.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * An informer cache that keeps less of each object. Every pass reads the API server, not a cache, so most caches only
 * wake a reconciler: {@code metadata.managedFields} is dropped everywhere (as nested maps it was about half of the
 * operator's live heap), and {@link #metadataOnly} keeps only what maps an object to its owner. See docs/benchmarks.md.
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
      copy.setMetadata(new ObjectMetaBuilder().withName(meta.getName()).withNamespace(meta.getNamespace())
          .withUid(meta.getUid()).withLabels(meta.getLabels()).withOwnerReferences(meta.getOwnerReferences())
          .withResourceVersion(meta.getResourceVersion()).withGeneration(meta.getGeneration())
          .withDeletionTimestamp(meta.getDeletionTimestamp()).build());
      return copy;
    });
  }

  @Override
  public R put(String key, R obj) {
    if (obj.getMetadata() != null) {
      obj.getMetadata().setManagedFields(null);
    }
    return super.put(key, kept.apply(obj));
  }
}
