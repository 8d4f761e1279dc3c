package io.etcdoperator.operator.informer;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.config.Cloner;

/**
 * The copies JOSDK makes of a primary before each pass. An EtcdCluster is handed over as cached, uncopied: its
 * reconciler reads only the name and namespace and takes its own copy from the caches, never patches or finalizes
 * through JOSDK, so the copy was pure cost (8 % of an idle fleet's CPU, docs/benchmarks.md). Other kinds are copied
 * ({@link ObjectCopies}).
 */
public final class PrimaryCopies implements Cloner {

    @Override
    public <R extends HasMetadata> R clone(R object) {
        return object instanceof EtcdCluster ? object : ObjectCopies.of(object);
    }
}
