package io.etcdoperator.localkube;

import io.etcdoperator.localkube.node.ImageCatalogue;
import io.etcdoperator.localkube.node.RestartBackOff;
import java.time.Duration;
import java.util.List;

/**
 * How {@link LocalKubernetes} is set up: how many nodes and in which zones (assigned round-robin; empty means no
 * zone label), the cluster domain, the image catalogue, the restart back-off, and whether Pods may get network
 * namespaces (else loopback addresses).
 */
public record LocalKubernetesOptions(int nodes, List<String> zones, String clusterDomain, ImageCatalogue images,
        RestartBackOff backOff, boolean podNamespaces) {

    public LocalKubernetesOptions {
        if (nodes < 1) {
            throw new IllegalArgumentException("at least one node");
        }
        zones = List.copyOf(zones);
    }

    /** Three nodes without zones, cluster.local, the etcd images, and a short back-off (1 s doubling to 10 s). */
    public static LocalKubernetesOptions defaults() {
        return new LocalKubernetesOptions(3, List.of(), "cluster.local", ImageCatalogue.withEtcdImages().build(),
                new RestartBackOff(Duration.ofSeconds(1), Duration.ofSeconds(10)), true);
    }

    public LocalKubernetesOptions withNodes(int count) {
        return new LocalKubernetesOptions(count, zones, clusterDomain, images, backOff, podNamespaces);
    }

    public LocalKubernetesOptions withZones(List<String> names) {
        return new LocalKubernetesOptions(nodes, names, clusterDomain, images, backOff, podNamespaces);
    }

    public LocalKubernetesOptions withClusterDomain(String domain) {
        return new LocalKubernetesOptions(nodes, zones, domain, images, backOff, podNamespaces);
    }

    public LocalKubernetesOptions withImages(ImageCatalogue catalogue) {
        return new LocalKubernetesOptions(nodes, zones, clusterDomain, catalogue, backOff, podNamespaces);
    }

    public LocalKubernetesOptions withBackOff(RestartBackOff restartBackOff) {
        return new LocalKubernetesOptions(nodes, zones, clusterDomain, images, restartBackOff, podNamespaces);
    }

    /** Loopback Pod addresses even where network namespaces would work (no network faults then). */
    public LocalKubernetesOptions withLoopbackPods() {
        return new LocalKubernetesOptions(nodes, zones, clusterDomain, images, backOff, false);
    }
}
