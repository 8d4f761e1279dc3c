package io.etcdoperator.operator.planner;

import java.util.Map;
import java.util.Optional;

/**
 * Everything the member controller decides on in one pass over an EtcdMember, read before the planner is asked.
 *
 * @param pending its initial cluster is not written yet (the cluster controller writes it)
 * @param podLost a memory member's recorded Pod is gone, replaced or being deleted: its data went with it
 * @param claim the name of its data PVC
 * @param missingSecret the TLS Secret its Pod would mount and that does not exist yet
 * @param existingCluster it starts into a formed cluster (only a seed's very first start forms a new one)
 * @param restoreAsked it is a seed with spec.restore
 * @param agent the operator's image is there to run the restore
 * @param labels the operator's labels the Pod must carry; {@code voter}: etcd counts it as a voter
 */
public record MemberView(
        boolean pending,
        boolean dormant,
        boolean memoryBacked,
        Optional<MemberPod> pod,
        boolean podLost,
        Volume volume,
        String claim,
        Optional<String> missingSecret,
        boolean existingCluster,
        boolean restoreAsked,
        boolean agent,
        Map<String, String> labels,
        boolean voter) {

    /** The member's Pod: {@code failed} holds the reason of a Pod that failed for good (evicted, say). */
    public record MemberPod(
            String name, boolean deleting, boolean controlled, Optional<String> failed, Map<String, String> labels) {}

    /** The member's data PVC. */
    public enum Volume {
        NOT_USED,
        MISSING,
        OURS,
        FOREIGN
    }

    /** It restores a snapshot before etcd's first start: a seed with spec.restore, forming its cluster. */
    public boolean restores() {
        return restoreAsked && !existingCluster;
    }
}
