package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The revision a member's Pod should have under the latched target ({@link MemberPods#revision}), remembered per
 * member for its version, target and stamped TLS Secret versions: building each Pod template again only to hash it
 * was a sixth of a settled cluster's pass (docs/benchmarks.md). A member whose object or target changed is built
 * again and replaces its entry (one per member: at 1000 clusters the entries of every version seen were 3 MiB); the
 * memory starts over when full, which only deleted members' entries can make it.
 */
public final class PodRevisions {

    static final int KEPT = 16_384;

    private record TargetRevision(ObservedClusterSpec target, String revision) {}

    /** What a member's revision was built from, and the revision. */
    private record Known(String from, String revision) {}

    private final Map<String, Known> known = new ConcurrentHashMap<>();
    /** A pass asks for each of its members with the same target object: hashed once, not once per member. */
    private volatile TargetRevision lastTarget = new TargetRevision(null, "");

    public String wanted(EtcdMember member, ObservedClusterSpec target) {
        String uid = member.getMetadata().getUid();
        String version = member.getMetadata().getResourceVersion();
        if (uid == null || version == null) {
            return built(member, target);
        }
        // the TLS Secret versions are stamped on the member in memory (TlsSecretVersions): not in its resourceVersion
        String stamped = member.getMetadata().getAnnotations() == null
                ? ""
                : member.getMetadata().getAnnotations().getOrDefault(TlsSecretVersions.ANNOTATION, "");
        String from = version + "/" + targetRevision(target) + "/" + stamped;
        Known last = known.get(uid);
        if (last != null && last.from().equals(from)) {
            return last.revision();
        }
        String revision = built(member, target);
        if (known.size() >= KEPT) {
            known.clear();
        }
        known.put(uid, new Known(from, revision));
        return revision;
    }

    private String targetRevision(ObservedClusterSpec target) {
        TargetRevision last = lastTarget;
        if (last.target() != target) {
            last = new TargetRevision(target, Revision.of(target));
            lastTarget = last;
        }
        return last.revision();
    }

    private static String built(EtcdMember member, ObservedClusterSpec target) {
        return MemberPods.revision(EtcdMembers.retarget(member, target));
    }

    int size() {
        return known.size();
    }
}
