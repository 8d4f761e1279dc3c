package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.reads.KubeReads;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A cache taken at one moment: it lags every write made after it, as an informer may. */
final class SnapshotReads implements KubeReads {

    final List<EtcdCluster> clusters;
    final List<EtcdMember> members;
    final List<Pod> pods;
    final List<PersistentVolumeClaim> volumes;
    final List<EtcdDefrag> defrags;
    private final KubernetesClient client;

    SnapshotReads(KubernetesClient client, String namespace) {
        this.client = client;
        this.clusters = new ArrayList<>(client.resources(EtcdCluster.class)
                .inNamespace(namespace)
                .list()
                .getItems());
        this.members = new ArrayList<>(
                client.resources(EtcdMember.class).inNamespace(namespace).list().getItems());
        this.pods = new ArrayList<>(client.pods().inNamespace(namespace).list().getItems());
        this.volumes = new ArrayList<>(
                client.persistentVolumeClaims().inNamespace(namespace).list().getItems());
        this.defrags = new ArrayList<>(
                client.resources(EtcdDefrag.class).inNamespace(namespace).list().getItems());
    }

    /** {@code pass} reads these caches, and the namespace's Services and PDBs as they are now. */
    ClusterReconcile servedTo(ClusterReconcile pass, String namespace) {
        pass.readFrom(this);
        var services = client.services().inNamespace(namespace).list().getItems();
        pass.objects()
                .readServicesFrom((ns, name) -> services.stream()
                        .filter(o -> o.getMetadata().getName().equals(name))
                        .findFirst());
        List<? extends HasMetadata> budgets = client.resources(pass.objects().disruptionBudgetType())
                .inNamespace(namespace)
                .list()
                .getItems();
        pass.objects()
                .readDisruptionBudgetsFrom((ns, name) -> budgets.stream()
                        .filter(o -> o.getMetadata().getName().equals(name))
                        .findFirst()
                        .map(HasMetadata.class::cast));
        return pass;
    }

    @Override
    public Optional<EtcdCluster> cluster(String namespace, String name) {
        return named(clusters, name);
    }

    @Override
    public List<EtcdMember> members(String namespace, String cluster) {
        return labelled(members, cluster);
    }

    @Override
    public List<Pod> pods(String namespace, String cluster) {
        return labelled(pods, cluster);
    }

    @Override
    public Optional<Pod> pod(String namespace, String name) {
        return named(pods, name);
    }

    @Override
    public List<PersistentVolumeClaim> volumes(String namespace, String cluster) {
        return labelled(volumes, cluster);
    }

    @Override
    public Optional<PersistentVolumeClaim> volume(String namespace, String name) {
        return named(volumes, name);
    }

    @Override
    public List<EtcdDefrag> defrags(String namespace) {
        return defrags.stream()
                .map(d -> client.getKubernetesSerialization().clone(d))
                .toList();
    }

    private <R extends HasMetadata> Optional<R> named(List<R> objects, String name) {
        return objects.stream()
                .filter(o -> name.equals(o.getMetadata().getName()))
                .findFirst()
                .map(o -> client.getKubernetesSerialization().clone(o));
    }

    private <R extends HasMetadata> List<R> labelled(List<R> objects, String cluster) {
        return objects.stream()
                .filter(o -> o.getMetadata().getLabels() != null
                        && cluster.equals(o.getMetadata().getLabels().get(EtcdOperatorApi.LABEL_CLUSTER)))
                .map(o -> client.getKubernetesSerialization().clone(o))
                .toList();
    }
}
