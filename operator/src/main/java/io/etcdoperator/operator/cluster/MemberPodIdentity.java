package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.resources.Owners;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Each EtcdMember's Pod is the one it owns (controller reference to its UID), never "whatever a label selector
 * returns": a label edited by a person or a GitOps tool must not make a healthy member look lost. Pods listed by the
 * cluster label are matched first; a member that ran a Pod and is missing from that list is looked up by name.
 */
final class MemberPodIdentity {

    private MemberPodIdentity() {}

    /** Member name → its own Pod; {@code byName} is asked only for members whose Pod the labelled list lacks. */
    static Map<String, Pod> byOwner(List<EtcdMember> members, Map<String, Pod> labelled, Function<String, Pod> byName) {
        Map<String, Pod> out = new HashMap<>();
        for (EtcdMember m : members) {
            String name = m.getMetadata().getName();
            String uid = m.getMetadata().getUid();
            Optional.ofNullable(labelled.get(name))
                    .filter(p -> Owners.controlledBy(p, uid))
                    .or(() -> ranPod(m)
                            ? Optional.ofNullable(byName.apply(name)).filter(p -> Owners.controlledBy(p, uid))
                            : Optional.empty())
                    .ifPresent(p -> out.put(name, p));
        }
        return out;
    }

    private static boolean ranPod(EtcdMember m) {
        return m.getStatus() != null
                && m.getStatus().getPodName() != null
                && !m.getStatus().getPodName().isEmpty();
    }
}
