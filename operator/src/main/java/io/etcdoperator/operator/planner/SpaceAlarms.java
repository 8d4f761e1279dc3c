package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.Alarm;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.reason.Reason;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What etcd's alarms ask of the planner. CORRUPT stops every disruptive step (only a person can judge which copy is
 * right). NOSPACE is repaired in the single slot: compact, defragment each voter (followers first), then disarm once
 * every voter is back under the room mark. docs/operations.md has the runbook.
 *
 * <p>etcd's dbSizeInUse counts the pages a compaction freed only at the member's next backend commit, and NOSPACE
 * refuses the writes that would commit; so a voter over the room mark is defragmented once per alarm and keyspace
 * revision whatever its estimate says (a person's deletes move the revision), and only a voter still over the mark
 * after that means the data fills the quota.
 */
final class SpaceAlarms {

    /** Free pages worth a defragment during NOSPACE recovery. */
    static final long RECLAIM_FLOOR = 1024 * 1024;
    /** Disarm only when every voter's database is at most this share of the quota, so writes get some room. */
    static final int ROOM_PERCENT = 90;

    private SpaceAlarms() {}

    static Optional<Step> corrupt(ObservedCluster observed) {
        List<Alarm> corrupt = observed.maintenance().alarms().stream()
                .filter(a -> a.kind() == Alarm.Kind.CORRUPT)
                .toList();
        if (corrupt.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Step.Wait(
                Reason.DATA_CORRUPTED,
                "etcd alarms " + corrupt
                        + "; no member is restarted, removed or defragmented until a person disarms it",
                ClusterPlanner.LONG));
    }

    static Optional<Step> noSpace(ObservedCluster observed, Membership membership) {
        Maintenance maintenance = observed.maintenance();
        if (!maintenance.has(Alarm.Kind.NOSPACE)) {
            return Optional.empty();
        }
        List<ObservedMember> voters = Defragmentation.observedVoters(observed, membership);
        if (voters.size() < membership.voters().size()) {
            return Optional.of(new Step.Wait(
                    Reason.SPACE_QUOTA_EXCEEDED,
                    "NOSPACE: waiting until every voter answers" + " its status (" + voters.size() + "/"
                            + membership.voters().size() + ")",
                    ClusterPlanner.MEDIUM));
        }
        Comparator<ObservedMember> followersFirst =
                Comparator.comparing(ObservedMember::isLeader).thenComparing(ObservedMember::name);
        Optional<ObservedMember> reclaimable = voters.stream()
                .filter(m -> m.endpoint().get().dbSize() - m.endpoint().get().dbSizeInUse() > RECLAIM_FLOOR)
                .min(followersFirst);
        if (reclaimable.isPresent()) {
            return Optional.of(new Step.Defragment(reclaimable.get().name(), Optional.empty()));
        }
        long quota = maintenance.quotaBytes();
        List<ObservedMember> full = voters.stream()
                .filter(m -> m.endpoint().get().dbSize() * 100 > quota * ROOM_PERCENT)
                .toList();
        if (full.isEmpty()) {
            return Optional.of(new Step.DisarmSpaceAlarms(maintenance.alarms().stream()
                    .filter(a -> a.kind() == Alarm.Kind.NOSPACE)
                    .toList()));
        }
        Optional<ObservedMember> unproven = full.stream()
                .filter(m -> !Long.valueOf(m.endpoint().get().revision())
                        .equals(maintenance.spaceDefragmented().get(m.name())))
                .min(followersFirst);
        if (unproven.isPresent()) {
            return Optional.of(new Step.Defragment(unproven.get().name(), Optional.empty()));
        }
        return Optional.of(new Step.Wait(
                Reason.SPACE_QUOTA_FULL,
                "NOSPACE: the keyspace is compacted and "
                        + full.stream().map(ObservedMember::name).toList() + " still hold more than " + ROOM_PERCENT
                        + "% of the quota after a defragment; delete keys or raise spec.options.quotaBackendBytes",
                ClusterPlanner.LONG));
    }
}
