package io.etcdoperator.operator.reads;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Optional;

/**
 * The Kubernetes objects a pass decides on: read from the API server, or from the informers' caches for a
 * {@link CachePass}. Lists of a cluster's objects are those carrying its cluster label.
 */
public interface KubeReads {

    Optional<EtcdCluster> cluster(String namespace, String name);

    List<EtcdMember> members(String namespace, String cluster);

    List<Pod> pods(String namespace, String cluster);

    Optional<Pod> pod(String namespace, String name);

    List<PersistentVolumeClaim> volumes(String namespace, String cluster);

    Optional<PersistentVolumeClaim> volume(String namespace, String name);

    List<EtcdDefrag> defrags(String namespace);

    /** Every read a request to the API server. */
    static KubeReads of(KubernetesClient client) {
        return new KubeReads() {
            @Override
            public Optional<EtcdCluster> cluster(String namespace, String name) {
                return Optional.ofNullable(client.resources(EtcdCluster.class)
                        .inNamespace(namespace)
                        .withName(name)
                        .get());
            }

            @Override
            public List<EtcdMember> members(String namespace, String cluster) {
                return client.resources(EtcdMember.class)
                        .inNamespace(namespace)
                        .withLabel(EtcdOperatorApi.LABEL_CLUSTER, cluster)
                        .list()
                        .getItems();
            }

            @Override
            public List<Pod> pods(String namespace, String cluster) {
                return client.pods()
                        .inNamespace(namespace)
                        .withLabel(EtcdOperatorApi.LABEL_CLUSTER, cluster)
                        .list()
                        .getItems();
            }

            @Override
            public Optional<Pod> pod(String namespace, String name) {
                return Optional.ofNullable(
                        client.pods().inNamespace(namespace).withName(name).get());
            }

            @Override
            public List<PersistentVolumeClaim> volumes(String namespace, String cluster) {
                return client.persistentVolumeClaims()
                        .inNamespace(namespace)
                        .withLabel(EtcdOperatorApi.LABEL_CLUSTER, cluster)
                        .list()
                        .getItems();
            }

            @Override
            public Optional<PersistentVolumeClaim> volume(String namespace, String name) {
                return Optional.ofNullable(client.persistentVolumeClaims()
                        .inNamespace(namespace)
                        .withName(name)
                        .get());
            }

            @Override
            public List<EtcdDefrag> defrags(String namespace) {
                return client.resources(EtcdDefrag.class)
                        .inNamespace(namespace)
                        .list()
                        .getItems();
            }
        };
    }
}
