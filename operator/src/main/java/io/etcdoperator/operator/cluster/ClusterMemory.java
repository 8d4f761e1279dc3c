package io.etcdoperator.operator.cluster;

/**
 * What the cluster controller keeps of a cluster between passes (pacing, evidence of loss, space recoveries, the
 * last report, the pooled etcd connection). A cluster that is gone is forgotten by every one of them at once.
 */
@FunctionalInterface
interface ClusterMemory {

    void forget(String namespace, String name);
}
