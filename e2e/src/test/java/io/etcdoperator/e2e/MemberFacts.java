package io.etcdoperator.e2e;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a fault test compares before and after: member ids (the EtcdMembers' and etcd's own list), member Pods, volumes,
 * and the events of a namespace.
 */
final class MemberFacts {

    private MemberFacts() {}

    /** EtcdMember name to its status.memberID: equal before and after means no member was replaced. */
    static Map<String, String> memberIds(E2eEnvironment env, String ns, String cluster) {
        Map<String, String> ids = new TreeMap<>();
        env.members(ns, cluster)
                .forEach(m -> ids.put(
                        m.getMetadata().getName(),
                        Objects.toString(E2eEnvironment.status(m).get("memberID"))));
        return ids;
    }

    /** EtcdMember name to the UID of its Pod ("" without one): equal means no Pod was restarted. */
    static Map<String, String> podUids(E2eEnvironment env, String ns, String cluster) {
        Map<String, String> uids = new TreeMap<>();
        env.members(ns, cluster).forEach(m -> {
            Pod p = env.client()
                    .pods()
                    .inNamespace(ns)
                    .withName(m.getMetadata().getName())
                    .get();
            uids.put(m.getMetadata().getName(), p == null ? "" : p.getMetadata().getUid());
        });
        return uids;
    }

    /** PVC name to UID in the namespace: equal means no volume was deleted or made anew. */
    static Map<String, String> pvcUids(E2eEnvironment env, String ns) {
        Map<String, String> uids = new TreeMap<>();
        env.client()
                .persistentVolumeClaims()
                .inNamespace(ns)
                .list()
                .getItems()
                .forEach(
                        p -> uids.put(p.getMetadata().getName(), p.getMetadata().getUid()));
        return uids;
    }

    /** etcd's own member list (name to hex id), asked through the members whose Pods are Ready. */
    static Map<String, String> etcdMemberIds(E2eEnvironment env, String ns, String cluster) {
        String endpoints = env.memberPods(ns, cluster).stream()
                .filter(MemberFacts::podReady)
                .map(E2eEnvironment::clientUrl)
                .collect(Collectors.joining(","));
        Map<String, String> ids = new TreeMap<>();
        // simple format: "<hex id>, started, <name>, <peer urls>, <client urls>, <is learner>"
        env.etcdctl(endpoints, "member", "list")
                .lines()
                .filter(l -> !l.isBlank())
                .map(l -> l.split(",\\s*"))
                .forEach(f -> ids.put(f[2], f[0]));
        return ids;
    }

    /** The reasons of every event in the namespace. */
    static List<String> reasons(E2eEnvironment env, String ns) {
        return env.client().v1().events().inNamespace(ns).list().getItems().stream()
                .map(e -> e.getReason())
                .filter(Objects::nonNull)
                .toList();
    }

    /** The status of a member Pod's etcd container (restart count, last termination), empty before it has one. */
    static Optional<ContainerStatus> etcdContainer(Pod pod) {
        return pod == null || pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null
                ? Optional.empty()
                : pod.getStatus().getContainerStatuses().stream()
                        .filter(c -> "etcd".equals(c.getName()))
                        .findFirst();
    }

    /** The kubelet's Ready condition: the cluster's READY count may still be the one from before a fault. */
    static boolean podReady(Pod pod) {
        return pod.getStatus() != null
                && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
