package io.etcdoperator.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** What a fault test compares before and after: member ids, member Pods, and the events of a namespace. */
final class MemberFacts {

  private MemberFacts() {
  }

  /** EtcdMember name to its status.memberID: equal before and after means no member was replaced. */
  static Map<String, String> memberIds(E2eEnvironment env, String ns, String cluster) {
    Map<String, String> ids = new TreeMap<>();
    env.members(ns, cluster).forEach(m -> ids.put(m.getMetadata().getName(),
        Objects.toString(E2eEnvironment.status(m).get("memberID"))));
    return ids;
  }

  /** EtcdMember name to the UID of its Pod ("" without one): equal means no Pod was restarted. */
  static Map<String, String> podUids(E2eEnvironment env, String ns, String cluster) {
    Map<String, String> uids = new TreeMap<>();
    env.members(ns, cluster).forEach(m -> {
      Pod p = env.client().pods().inNamespace(ns).withName(m.getMetadata().getName()).get();
      uids.put(m.getMetadata().getName(), p == null ? "" : p.getMetadata().getUid());
    });
    return uids;
  }

  /** The reasons of every event in the namespace. */
  static List<String> reasons(E2eEnvironment env, String ns) {
    return env.client().v1().events().inNamespace(ns).list().getItems().stream().map(e -> e.getReason())
        .filter(Objects::nonNull).toList();
  }

  /** The kubelet's Ready condition: the cluster's READY count may still be the one from before a fault. */
  static boolean podReady(Pod pod) {
    return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions()
        .stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }
}
