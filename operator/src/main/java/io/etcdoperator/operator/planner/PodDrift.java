package io.etcdoperator.operator.planner;

import io.etcdoperator.operator.reason.RestartReason;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Why a member's Pod must restart, judged from what the observer read off the member, its Pod and the latched target.
 * The observer reads; this decides (and the roller then decides when).
 */
public final class PodDrift {

    /**
     * What one member's Pod is against the target.
     *
     * @param judged there is a latched target, the member's initial cluster is written and it is not dormant
     * @param live its Pod exists and is not being deleted
     * @param wantedRevision the revision the latched target builds for it
     * @param podRevision the revision its Pod carries (its EtcdMember's own for a Pod without one)
     * @param memberVersion its EtcdMember's spec.version; {@code targetVersion}: the target's
     * @param materialDiffers the TLS material its EtcdMember is stamped with is not what its live Pod runs
     * @param restartAt the user's restart-at annotation, if set; {@code podCreated}: when its live Pod was created
     * @param formedPvcSeed it is the PVC seed of a formed cluster
     * @param podStartsNew its live Pod's etcd still starts with --initial-cluster-state=new
     */
    public record Facts(
            boolean judged,
            boolean live,
            String wantedRevision,
            String podRevision,
            String memberVersion,
            String targetVersion,
            boolean materialDiffers,
            Optional<Instant> restartAt,
            Optional<Instant> podCreated,
            boolean formedPvcSeed,
            boolean podStartsNew) {}

    private PodDrift() {}

    /**
     * A revision apart: the version, else the TLS material, else the spec changed; else the user asked for a restart
     * after the Pod started. A seed whose Pod would form a second cluster on an emptied volume restarts regardless.
     */
    public static Optional<RestartReason> reason(Facts f, Instant now) {
        if (f.judged() && !f.wantedRevision().equals(f.podRevision())) {
            if (!Objects.equals(f.memberVersion(), f.targetVersion())) {
                return Optional.of(RestartReason.VERSION_CHANGED);
            }
            return Optional.of(
                    f.live() && f.materialDiffers() ? RestartReason.CERTIFICATE_RENEWED : RestartReason.SPEC_CHANGED);
        }
        boolean requested = f.judged()
                && f.live()
                && f.restartAt()
                        .filter(at -> !at.isAfter(now))
                        .flatMap(at -> f.podCreated().map(created -> created.isBefore(at)))
                        .orElse(false);
        if (requested) {
            return Optional.of(RestartReason.RESTART_REQUESTED);
        }
        return f.formedPvcSeed() && f.live() && f.podStartsNew()
                ? Optional.of(RestartReason.CLUSTER_FORMED)
                : Optional.empty();
    }
}
