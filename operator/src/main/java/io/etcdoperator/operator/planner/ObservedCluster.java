package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * An immutable picture of one EtcdCluster for one pass: its latched cluster id, its EtcdMembers, etcd's view, what
 * authentication wants and has, the maintenance slot's inputs, and when it was taken (ages are measured from it).
 */
public record ObservedCluster(
        Optional<ClusterId> clusterId,
        List<ObservedMember> members,
        EtcdView etcd,
        AuthView auth,
        Maintenance maintenance,
        Instant observedAt,
        List<StrandedPod> stranded,
        Recourse recourse,
        List<RetainedVolume> retained,
        ExternalMembers external) {

    public ObservedCluster(
            Optional<ClusterId> clusterId,
            List<ObservedMember> members,
            EtcdView etcd,
            AuthView auth,
            Maintenance maintenance,
            Instant observedAt,
            List<StrandedPod> stranded,
            Recourse recourse,
            List<RetainedVolume> retained) {
        this(
                clusterId,
                members,
                etcd,
                auth,
                maintenance,
                observedAt,
                stranded,
                recourse,
                retained,
                ExternalMembers.NONE);
    }

    /** The same picture with what the observer read of an adoption. */
    public ObservedCluster withExternal(ExternalMembers adoption) {
        return new ObservedCluster(
                clusterId, members, etcd, auth, maintenance, observedAt, stranded, recourse, retained, adoption);
    }

    /** A released volume of a replaced member, and when the user's retention lets the operator delete it (if ever). */
    public record RetainedVolume(String pvc, Optional<Instant> expires) {}

    public ObservedCluster(
            Optional<ClusterId> clusterId,
            List<ObservedMember> members,
            EtcdView etcd,
            AuthView auth,
            Maintenance maintenance,
            Instant observedAt,
            List<StrandedPod> stranded,
            Recourse recourse) {
        this(clusterId, members, etcd, auth, maintenance, observedAt, stranded, recourse, List.of());
    }

    /**
     * What a person can do once every member lost its data, read only then: the newest successful EtcdSnapshot of the
     * cluster, and whether the cluster's {@code reset-empty} annotation names the lost cluster id (bootstrap anew).
     */
    public record Recourse(Optional<String> newestSnapshot, boolean resetAsked) {
        public static final Recourse NONE = new Recourse(Optional.empty(), false);
    }

    public ObservedCluster(
            Optional<ClusterId> clusterId,
            List<ObservedMember> members,
            EtcdView etcd,
            AuthView auth,
            Maintenance maintenance,
            Instant observedAt,
            List<StrandedPod> stranded) {
        this(clusterId, members, etcd, auth, maintenance, observedAt, stranded, Recourse.NONE, List.of());
    }

    /**
     * A member Pod whose EtcdMember is gone (its finalizer ran MemberRemove) but which stays on a node that is not
     * Ready: no kubelet confirms its deletion, so it and its volume claim would stay until the node returns.
     */
    public record StrandedPod(String pod, ObservedMember.NodeDown node) {}

    /** What spec.auth asks for, what status latched, and (probed only when it matters) whether etcd requires auth. */
    public record AuthView(boolean wanted, boolean latched, Optional<Boolean> etcdRequiresAuth, RootPassword password) {
        public static final AuthView NOT_WANTED = new AuthView(false, false, Optional.empty());

        public AuthView(boolean wanted, boolean latched, Optional<Boolean> etcdRequiresAuth) {
            this(wanted, latched, etcdRequiresAuth, RootPassword.IN_STEP);
        }
    }

    /**
     * Root's password in the user's Secret against the operator's copy of what etcd has: in step; not recorded yet (auth
     * enabled by an older operator, or a crash after AuthEnable); changed by the user; or etcd already accepted the
     * pending ({@code next}) or the user's password while the copy still says the old one (a change cut short).
     */
    public enum RootPassword {
        IN_STEP,
        UNRECORDED,
        CHANGED,
        ETCD_HAS_NEXT,
        ETCD_HAS_WANTED
    }

    /** The cluster as the pass that restarts {@code member} reports it: READY must not count a Pod just deleted. */
    public ObservedCluster restarting(String member) {
        return with(
                members.stream()
                        .map(m -> m.name().equals(member) ? m.restarting() : m)
                        .toList(),
                etcd);
    }

    /**
     * The cluster as the pass whose MemberPromote etcd accepted reports it: a ready {@code id} votes now, so READY counts
     * it in that pass, not a pass (a queue round in a fleet) later. One not seen ready stays as seen: as a voter it
     * would make the report count a voter down, which the next pass judges on its own observation.
     */
    public ObservedCluster promoted(MemberId id) {
        if (!(etcd instanceof EtcdView.Reached reached)
                || members.stream()
                        .noneMatch(m -> m.ready()
                                && m.entryIn(reached.membership())
                                        .map(e -> e.id().equals(id))
                                        .orElse(false))) {
            return this;
        }
        return with(members, new EtcdView.Reached(reached.membership().promoted(id)));
    }

    private ObservedCluster with(List<ObservedMember> reportedMembers, EtcdView reportedEtcd) {
        return new ObservedCluster(
                clusterId,
                reportedMembers,
                reportedEtcd,
                auth,
                maintenance,
                observedAt,
                stranded,
                recourse,
                retained,
                external);
    }

    /** Newest first: the order in which scale-down picks victims (creation time, then name, both descending). */
    public static final Comparator<ObservedMember> NEWEST_FIRST = Comparator.comparing(ObservedMember::created)
            .thenComparing(ObservedMember::name)
            .reversed();

    public ObservedCluster {
        members = List.copyOf(members);
        stranded = List.copyOf(stranded);
        retained = List.copyOf(retained);
    }

    public ObservedCluster(
            Optional<ClusterId> clusterId,
            List<ObservedMember> members,
            EtcdView etcd,
            AuthView auth,
            Maintenance maintenance,
            Instant observedAt) {
        this(clusterId, members, etcd, auth, maintenance, observedAt, List.of());
    }

    public ObservedCluster(Optional<ClusterId> clusterId, List<ObservedMember> members, EtcdView etcd) {
        this(clusterId, members, etcd, AuthView.NOT_WANTED);
    }

    public ObservedCluster(Optional<ClusterId> clusterId, List<ObservedMember> members, EtcdView etcd, AuthView auth) {
        this(clusterId, members, etcd, auth, Maintenance.NONE);
    }

    /** Without a clock reading: nothing counts as old (see {@link #observedAt()}). */
    public ObservedCluster(
            Optional<ClusterId> clusterId,
            List<ObservedMember> members,
            EtcdView etcd,
            AuthView auth,
            Maintenance maintenance) {
        this(clusterId, members, etcd, auth, maintenance, Instant.EPOCH);
    }

    /** Voters as etcd lists them; while etcd does not answer, the running members last marked as voters. */
    public int voterCount() {
        return etcd() instanceof EtcdView.Reached r
                ? r.membership().voters().size()
                : (int) running().stream().filter(ObservedMember::voterMark).count();
    }

    /** Running, ready EtcdMembers whose etcd entry is a voter, and the external voters that answered (adoption). */
    public int readyVoters(Membership membership) {
        return (int) running().stream()
                        .filter(ObservedMember::ready)
                        .filter(m -> m.votesIn(membership))
                        .count()
                + external.healthyVoters(membership);
    }

    /** A running etcd is being adopted and etcd still lists (or, before the latch, has) members of its own. */
    public boolean adopting() {
        return external.adopting()
                && (clusterId.isEmpty()
                        || !(etcd instanceof EtcdView.Reached r)
                        || !external.listed(r.membership()).isEmpty());
    }

    /** Whether the ready voters left after {@code victim} leaves etcd still make a majority of the voters left. */
    public boolean quorumSurvivesRemoval(ObservedMember victim, Membership membership) {
        Optional<Member> inEtcd = victim.entryIn(membership);
        if (inEtcd.isEmpty() || inEtcd.get().learner()) {
            return true;
        }
        int readyAfter = readyVoters(membership) - (victim.ready() ? 1 : 0);
        return Quorum.holds(readyAfter, membership.voters().size() - 1);
    }

    /** The EtcdMember behind an entry of etcd's member list: by peer URL, or by name once it started. */
    public Optional<ObservedMember> ownerOf(Member member) {
        return members.stream()
                .filter(m -> member.peerUrls().contains(m.peerUrl())
                        || (member.started() && member.name().equals(m.name())))
                .findFirst();
    }

    public List<ObservedMember> running() {
        return members.stream().filter(ObservedMember::running).toList();
    }

    public List<ObservedMember> dormant() {
        return members.stream().filter(m -> m.dormant() && !m.deleting()).toList();
    }

    public boolean anyDeleting() {
        return members.stream().anyMatch(ObservedMember::deleting);
    }

    public Optional<ObservedMember> seed() {
        return members.stream().filter(m -> m.seed() && !m.deleting()).findFirst();
    }

    public Optional<ObservedMember> pendingJoiner() {
        return running().stream().filter(m -> m.pending() && !m.seed()).findFirst();
    }

    public int readyRunning() {
        return (int) running().stream().filter(ObservedMember::ready).count();
    }

    public Optional<ObservedMember> byName(String name) {
        return members.stream().filter(m -> m.name().equals(name)).findFirst();
    }

    /** The latched target is reached: count, readiness, formation, no learner or joiner in flight, nothing to roll. */
    public boolean targetReached(int desired) {
        List<ObservedMember> running = running();
        boolean formedOrPaused = clusterId.isPresent() || desired == 0;
        boolean noLearners = !(etcd instanceof EtcdView.Reached r)
                || r.membership().learners().isEmpty();
        return formedOrPaused
                && running.size() == desired
                && running.stream().allMatch(m -> m.ready() && !m.pending())
                && !anyDeleting()
                && noLearners
                && outdated().isEmpty();
    }

    /** A member whose Pod is what the latched target builds crash-loops for a cause other than lost data. */
    public boolean targetCrashLoops() {
        return running().stream()
                .anyMatch(m -> m.outdated().isEmpty()
                        && m.broken().filter(b -> !b.dataLost()).isPresent());
    }

    /** Running members whose Pod is not what the latched target builds. */
    public List<ObservedMember> outdated() {
        return running().stream().filter(m -> m.outdated().isPresent()).toList();
    }

    /** The lowest etcd version a running voter reported this pass: what the cluster as a whole speaks. */
    public Optional<VersionPolicy.EtcdVersion> lowestRunningVersion() {
        return running().stream()
                .flatMap(m -> m.endpoint().stream())
                .filter(s -> !s.learner())
                .flatMap(s -> VersionPolicy.EtcdVersion.parse(s.version()).stream())
                .min(Comparator.naturalOrder());
    }
}
