package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.EtcdSnapshot;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotStatus;
import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.operator.planner.ObservedCluster;
import io.etcdoperator.operator.planner.ObservedMember;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What a person can do once every member lost its data: the newest snapshot, and whether a reset was asked. */
public final class AllLostRecourse {

    private final KubernetesClient client;

    AllLostRecourse(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Read only once no running voter is left without a sign of lost data: the newest Complete EtcdSnapshot of this
     * cluster (one LIST), and whether reset-empty names the latched cluster id.
     */
    ObservedCluster.Recourse of(EtcdCluster cluster, List<ObservedMember> seen) {
        String latched = cluster.getStatus().getClusterID();
        boolean allLost =
                seen.stream().filter(m -> m.running() && m.voterMark()).allMatch(m -> m.showsLoss() && !m.ready());
        if (!allLost || latched == null) {
            return ObservedCluster.Recourse.NONE;
        }
        boolean reset = resetAsked(cluster);
        Optional<String> newest = client
                .resources(EtcdSnapshot.class)
                .inNamespace(cluster.getMetadata().getNamespace())
                .list()
                .getItems()
                .stream()
                .filter(s -> s.getSpec() != null
                        && s.getSpec().getClusterRef() != null
                        && cluster.getMetadata()
                                .getName()
                                .equals(s.getSpec().getClusterRef().getName()))
                .filter(s -> s.getStatus() != null
                        && EtcdSnapshotStatus.PHASE_COMPLETE.equals(
                                s.getStatus().getPhase()))
                .max(Comparator.comparing((EtcdSnapshot s) -> s.getMetadata().getCreationTimestamp()))
                .map(s -> s.getMetadata().getName());
        return new ObservedCluster.Recourse(newest, reset);
    }

    /** The reset-empty annotation names the latched cluster id (a person's "its data is gone, start empty"). */
    public static boolean resetAsked(EtcdCluster cluster) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        String asked = annotations == null ? null : annotations.get(EtcdOperatorApi.ANNOTATION_RESET_EMPTY);
        String latched =
                cluster.getStatus() == null ? null : cluster.getStatus().getClusterID();
        return latched != null && asked != null && ClusterId.parse(latched).equals(parsedOrNull(asked.strip()));
    }

    private static ClusterId parsedOrNull(String hex) {
        try {
            return ClusterId.parse(hex);
        } catch (RuntimeException e) {
            return null; // not an id: the annotation asks for nothing
        }
    }
}
