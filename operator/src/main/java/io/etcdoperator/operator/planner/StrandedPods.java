package io.etcdoperator.operator.planner;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** The Pods of removed members that no kubelet will ever confirm gone (NodeLoss force-deletes them). */
public final class StrandedPods {

    private StrandedPods() {}

    /**
     * Member Pods being deleted whose EtcdMember is gone (its finalizer ran MemberRemove) on a node that is not Ready:
     * no kubelet will confirm their deletion.
     */
    public static List<ObservedCluster.StrandedPod> of(
            List<EtcdMember> members, Map<String, Pod> pods, Map<String, ObservedMember.NodeDown> down) {
        Set<String> names = members.stream().map(m -> m.getMetadata().getName()).collect(Collectors.toSet());
        return pods.values().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() != null
                        && !names.contains(p.getMetadata().getName()))
                .filter(p -> p.getMetadata().getOwnerReferences() != null
                        && p.getMetadata().getOwnerReferences().stream()
                                .anyMatch(o -> EtcdMember.class.getSimpleName().equals(o.getKind())))
                .filter(p -> down.containsKey(p.getSpec().getNodeName()))
                .map(p -> new ObservedCluster.StrandedPod(
                        p.getMetadata().getName(), down.get(p.getSpec().getNodeName())))
                .toList();
    }
}
