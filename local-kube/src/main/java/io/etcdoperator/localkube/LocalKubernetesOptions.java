package io.etcdoperator.localkube;

import io.etcdoperator.localkube.node.ImageCatalogue;
import io.etcdoperator.localkube.node.RestartBackOff;
import java.time.Duration;
import java.util.List;

/**
 * How {@link LocalKubernetes} is set up: how many nodes and in which zones (assigned round-robin; empty means no
 * zone label), the cluster domain, the image catalogue, the restart back-off, and whether Pods may get network
 * namespaces (else loopback addresses), and whether etcd member Pods are answered by a simulated etcd instead of
 * processes (see {@link #withSimulatedEtcd()}).
 */
public record LocalKubernetesOptions(
        int nodes,
        List<String> zones,
        String clusterDomain,
        ImageCatalogue images,
        RestartBackOff backOff,
        boolean podNamespaces,
        boolean simulatedEtcd) {

    public LocalKubernetesOptions {
        if (nodes < 1) {
            throw new IllegalArgumentException("at least one node");
        }
        zones = List.copyOf(zones);
    }

    /** Three nodes without zones, cluster.local, the etcd images, and a short back-off (1 s doubling to 10 s). */
    public static LocalKubernetesOptions defaults() {
        return new LocalKubernetesOptions(
                3,
                List.of(),
                "cluster.local",
                ImageCatalogue.withEtcdImages().build(),
                new RestartBackOff(Duration.ofSeconds(1), Duration.ofSeconds(10)),
                true,
                false);
    }

    public LocalKubernetesOptions withNodes(int count) {
        return new LocalKubernetesOptions(count, zones, clusterDomain, images, backOff, podNamespaces, simulatedEtcd);
    }

    public LocalKubernetesOptions withZones(List<String> names) {
        return new LocalKubernetesOptions(nodes, names, clusterDomain, images, backOff, podNamespaces, simulatedEtcd);
    }

    public LocalKubernetesOptions withClusterDomain(String domain) {
        return new LocalKubernetesOptions(nodes, zones, domain, images, backOff, podNamespaces, simulatedEtcd);
    }

    public LocalKubernetesOptions withImages(ImageCatalogue catalogue) {
        return new LocalKubernetesOptions(
                nodes, zones, clusterDomain, catalogue, backOff, podNamespaces, simulatedEtcd);
    }

    public LocalKubernetesOptions withBackOff(RestartBackOff restartBackOff) {
        return new LocalKubernetesOptions(
                nodes, zones, clusterDomain, images, restartBackOff, podNamespaces, simulatedEtcd);
    }

    /** Loopback Pod addresses even where network namespaces would work (no network faults then). */
    public LocalKubernetesOptions withLoopbackPods() {
        return new LocalKubernetesOptions(nodes, zones, clusterDomain, images, backOff, false, simulatedEtcd);
    }

    /**
     * Simulated-etcd mode: Pods of etcd members (the operator's cluster label and an "etcd" container) start no
     * process; a simulated etcd serves each member on its Pod IP. Pods get loopback addresses, since thousands of
     * network namespaces would not fit; nodes take 1000 Pods each.
     */
    public LocalKubernetesOptions withSimulatedEtcd() {
        return new LocalKubernetesOptions(nodes, zones, clusterDomain, images, backOff, false, true);
    }
}
