package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.planner.Maintenance;
import io.etcdoperator.operator.resources.MemberPods;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A person's (or the planner's recorded) force-new-cluster-from request, as the observer reads it. */
final class RecoveryRequest {

    private RecoveryRequest() {}

    /** The member a person chose to restart the cluster from, which EtcdMember carries the flag, and whether it acted. */
    static Optional<Maintenance.QuorumRecovery> read(
            EtcdCluster cluster, List<EtcdMember> members, Map<String, Pod> pods) {
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        String from = annotations == null ? null : annotations.get(EtcdOperatorApi.ANNOTATION_FORCE_NEW_CLUSTER_FROM);
        if (from == null || from.isBlank()) {
            return Optional.empty();
        }
        Optional<EtcdMember> flagged = members.stream()
                .filter(m -> m.getMetadata().getAnnotations() != null
                        && m.getMetadata().getAnnotations().containsKey(EtcdOperatorApi.ANNOTATION_FORCE_NEW_CLUSTER))
                .findFirst();
        boolean carriedOut = flagged.map(
                        m -> carriedOut(m, pods.get(m.getMetadata().getName())))
                .orElse(true);
        return Optional.of(new Maintenance.QuorumRecovery(
                from.strip(), flagged.map(m -> m.getMetadata().getName()), carriedOut));
    }

    /**
     * After the mark, the flagged member's Pod was restarted (created since the mark, or gone or going) or, in place,
     * its guard was asked. A mark that is no instant (an older operator's "true") counts as carried out.
     */
    static boolean carriedOut(EtcdMember flagged, Pod pod) {
        if (pod == null || pod.getMetadata().getDeletionTimestamp() != null) {
            return true;
        }
        if (MemberPods.memoryBacked(flagged.getSpec())) {
            return pod.getMetadata().getAnnotations() != null
                    && pod.getMetadata().getAnnotations().containsKey(EtcdOperatorApi.ANNOTATION_FORCE_NEW_CLUSTER);
        }
        try {
            Instant marked = Instant.parse(
                            flagged.getMetadata().getAnnotations().get(EtcdOperatorApi.ANNOTATION_FORCE_NEW_CLUSTER))
                    .truncatedTo(ChronoUnit.SECONDS);
            return !Instant.parse(pod.getMetadata().getCreationTimestamp()).isBefore(marked);
        } catch (RuntimeException e) {
            return true;
        }
    }
}
