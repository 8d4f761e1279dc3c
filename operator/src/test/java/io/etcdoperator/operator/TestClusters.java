package io.etcdoperator.operator;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterSpec;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.etcdoperator.api.v1alpha2.StorageSpec;
import io.fabric8.kubernetes.api.model.Quantity;

/** A minimal EtcdCluster (etcd 3.5.16, 1Gi) or EtcdMember for mock tests to adjust and create. */
public final class TestClusters {

    private TestClusters() {}

    public static EtcdCluster cluster(String namespace, String name, int replicas, String medium) {
        EtcdCluster c = new EtcdCluster();
        c.getMetadata().setName(name);
        c.getMetadata().setNamespace(namespace);
        EtcdClusterSpec spec = new EtcdClusterSpec();
        spec.setReplicas(replicas);
        spec.setVersion("3.5.16");
        StorageSpec storage = new StorageSpec();
        storage.setSize(new Quantity("1Gi"));
        storage.setMedium(medium);
        spec.setStorage(storage);
        c.setSpec(spec);
        return c;
    }

    /** An EtcdMember of {@code cluster} with nothing but its name and cluster set. */
    public static EtcdMember member(String namespace, String name, String cluster) {
        EtcdMember m = new EtcdMember();
        m.getMetadata().setName(name);
        m.getMetadata().setNamespace(namespace);
        EtcdMemberSpec spec = new EtcdMemberSpec();
        spec.setClusterName(cluster);
        m.setSpec(spec);
        return m;
    }
}
