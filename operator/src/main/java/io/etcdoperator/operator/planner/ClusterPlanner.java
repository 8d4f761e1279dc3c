package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.planner.EtcdView.Reached;
import io.etcdoperator.operator.planner.EtcdView.Unreachable;
import io.etcdoperator.operator.planner.Step.Wait;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.reason.RestartReason;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Decides the one next step for a cluster: membership, repair, roll, leadership, authentication, space alarms and
 * defragmentation all compete for this single slot. Pure: the same observation always gives the same step. The order of the checks is the safety
 * argument; docs/concepts.md and docs/operations.md walk through it.
 */
public final class ClusterPlanner {

    static final Duration SHORT = Duration.ofSeconds(2);
    /** A learner's Pod was started: etcd lists it as started within a second, and nothing in Kubernetes says when. */
    static final Duration LEARNER_START = Duration.ofMillis(250);
    /** A member created this recently is starting: looked at often, and counted once etcd answers for it. */
    public static final Duration LEARNER_START_WINDOW = Duration.ofSeconds(20);

    static final Duration MEDIUM = Duration.ofSeconds(5);
    static final Duration LONG = Duration.ofSeconds(10);
    /** A learner whose Pod has not been up this long after its EtcdMember was created is removed and made again. */
    static final Duration LEARNER_STUCK = Duration.ofMinutes(10);

    /** Scale-down takes outdated members first (the surge of a memory roll), then broken ones, then the newest. */
    static final Comparator<ObservedMember> VICTIM_ORDER = Comparator.comparing(
                    (ObservedMember m) -> m.outdated().isEmpty())
            .thenComparing(ObservedMember::ready)
            .thenComparing(ObservedCluster.NEWEST_FIRST);

    /** How long a restarted voter must stay Ready before the roll touches the next member (--member-min-ready-seconds). */
    public static final Duration MIN_READY = Duration.ofSeconds(10);

    private final Duration minReady;

    public ClusterPlanner() {
        this(MIN_READY);
    }

    public ClusterPlanner(Duration minReady) {
        this.minReady = minReady;
    }

    /**
     * Before anything is observed: a name no object can be named after (refused for good, latched or not), the
     * cert-manager gate, then the first target (or the refusal of the first spec), or a taken-over cluster's tls,
     * auth and bootstrap. Empty: a target is latched, observe and ask {@link #next(ClusterView)}.
     */
    public Optional<Step> admit(Admission admission) {
        if (!admission.nameRefusals().isEmpty()) {
            return Optional.of(new Step.RefuseSpec(admission.nameRefusals()));
        }
        if (admission.certManagerMissing()) {
            return Optional.of(new Step.AwaitCertManager());
        }
        if (admission.targetLatched()) {
            return admission.takenOverTarget().map(Step.AdoptImmutables::new);
        }
        return Optional.of(
                admission.refusals().isEmpty()
                        ? new Step.LatchTarget(Reason.INITIAL_SNAPSHOT)
                        : new Step.RefuseSpec(admission.refusals()));
    }

    /**
     * A write to the Services, the PodDisruptionBudget or TLS material first (the pass plans again after it), then the
     * target (a new one latched, or its deadline passed), then a Service another object owns, then the cluster's own
     * next step.
     */
    public Step next(ClusterView view) {
        ObservedCluster observed = view.observed();
        Optional<Step> objects = ClusterWideObjects.next(view.objects(), observed, view.desired());
        if (objects.isPresent() && objects.get() instanceof Step.Shaping) {
            return objects.get();
        }
        Optional<TlsWrite> tls = view.tls().flatMap(t -> IssuedTlsPlanner.write(t, view.now()));
        if (tls.isPresent()) {
            return tls.get();
        }
        TargetLatch.Decision decision = TargetLatch.decide(
                view.spec(),
                Optional.of(view.target()),
                observed.clusterId().isPresent(),
                observed.targetReached(view.desired()),
                view.deadline(),
                view.now(),
                view.refusals().isEmpty(),
                observed.targetCrashLoops());
        return switch (decision) {
            case TargetLatch.Latch latch -> new Step.LatchTarget(latch.reason());
            case TargetLatch.Exceeded exceeded -> new Step.DeadlineExceeded(exceededReason(exceeded, observed));
            case TargetLatch.Keep keep -> objects.orElseGet(() -> next(observed, view.desired()));
        };
    }

    private static Reason exceededReason(TargetLatch.Exceeded exceeded, ObservedCluster observed) {
        if (exceeded.bootstrapFailed()) {
            return Reason.BOOTSTRAP_FAILED;
        }
        boolean upgrading =
                observed.outdated().stream().anyMatch(m -> m.outdated().orElseThrow() == RestartReason.VERSION_CHANGED);
        return upgrading ? Reason.UPGRADE_STALLED : Reason.DEADLINE_EXCEEDED;
    }

    public Step next(ObservedCluster observed, int desired) {
        if (observed.clusterId().isEmpty()) {
            return observed.adopting() ? Adoption.bootstrap(observed, desired) : Joining.bootstrap(observed, desired);
        }
        if (observed.anyDeleting() && observed.maintenance().recovery().isEmpty()) {
            return new Wait(Reason.MEMBER_REMOVAL_IN_PROGRESS, "a member is being removed", MEDIUM);
        }
        Optional<ObservedMember> foreign =
                observed.members().stream().filter(m -> !m.controlled()).findFirst();
        if (foreign.isPresent()) {
            return new Wait(Reason.FOREIGN_MEMBER, foreign.get().name(), LONG);
        }
        List<ObservedMember> running = observed.running();
        if (running.isEmpty() && !observed.adopting()) {
            return resumeOrStop(observed, desired);
        }
        Optional<Step> recovery = QuorumLoss.next(observed);
        if (recovery.isPresent()) {
            return recovery.get();
        }
        if (!(observed.etcd() instanceof Reached reached)) {
            return unreachable(observed.etcd());
        }
        Membership membership = reached.membership();
        if (!membership.clusterId().equals(observed.clusterId().get())) {
            return new Wait(
                    Reason.CLUSTER_ID_MISMATCH,
                    "etcd answers for cluster " + membership.clusterId() + ", the latched cluster is "
                            + observed.clusterId().get() + "; no membership change is made",
                    LONG);
        }
        Optional<Step> hold = Adoption.hold(observed, membership, desired)
                .or(() -> SpaceAlarms.corrupt(observed).or(() -> Defragmentation.overdue(observed)));
        if (hold.isPresent()) {
            return hold.get();
        }
        ObservedCluster.AuthView auth = observed.auth();
        if (auth.wanted() && !auth.latched() && auth.etcdRequiresAuth().orElse(false)) {
            return new Step.LatchAuth();
        }
        Optional<Step> password = rootPassword(auth);
        if (password.isPresent()) {
            return password.get();
        }
        Optional<Step> repair = removeOrphans(observed, membership)
                .or(() -> replaceRemoved(observed, membership))
                .or(() -> removeLost(observed, membership))
                .or(() -> NodeLoss.next(observed, membership));
        if (repair.isPresent()) {
            return repair.get();
        }
        Optional<Step> space = SpaceAlarms.noSpace(observed, membership);
        if (space.isPresent()) {
            return space.get();
        }
        Optional<Step> formedSeed = formedSeed(observed);
        if (formedSeed.isPresent()) {
            return formedSeed.get(); // before anyone joins
        }
        Optional<ObservedMember> joiner = observed.pendingJoiner();
        if (joiner.isPresent()) {
            return Joining.join(joiner.get(), observed, membership);
        }
        Optional<Step> learnerStep = Joining.promoteLearners(observed, membership, desired);
        if (learnerStep.isPresent()) {
            return learnerStep.get();
        }
        if (observed.running().size() == desired) {
            Optional<Step> roll = Roller.next(observed, membership, minReady);
            if (roll.isPresent()) {
                return roll.get();
            }
        }
        Step resized = resize(observed, membership, desired);
        if (!(resized instanceof Step.Converged)) {
            return resized;
        }
        Optional<ObservedMember> small = observed.running().stream()
                .filter(ObservedMember::volumeBehind)
                .min(Comparator.comparing(ObservedMember::name));
        if (small.isPresent()) {
            return new Step.ExpandVolume(small.get().name());
        }
        if (auth.wanted() && !auth.latched() && !observed.adopting()) {
            return new Step.EnableAuth(); // not under the adopted cluster's own clients
        }
        if (!observed.targetReached(desired)) {
            return resized;
        }
        return Adoption.handOver(observed, membership)
                .or(() -> Defragmentation.next(observed, membership).or(() -> expiredVolume(observed)))
                .orElse(resized);
    }

    /** A seed that still starts "new" would form a second cluster on an emptied volume: it restarts as formed. */
    private static Optional<Step> formedSeed(ObservedCluster observed) {
        if (observed.running().size() != 1) {
            return Optional.empty();
        }
        return observed.running().stream()
                .filter(m -> m.ready()
                        && m.outdated()
                                .filter(r -> r == RestartReason.CLUSTER_FORMED)
                                .isPresent())
                .findFirst()
                .map(m -> new Step.RestartMember(m.name(), RestartReason.CLUSTER_FORMED));
    }

    /**
     * A member that lost its data (a memory member whose Pod is gone, a member whose etcd panicked on a raft log it
     * no longer has, or that etcd-guard refused) must never start again under its old identity: it is replaced once the
     * loss is proven ({@link LossProof}), quorum-gated. A crash loop of any other cause is reported, never replaced.
     */
    private Optional<Step> removeLost(ObservedCluster observed, Membership membership) {
        Optional<ObservedMember> broken = observed.running().stream()
                .filter(m -> !m.ready()
                        && m.broken().map(ObservedMember.Broken::dataLost).orElse(false)
                        && !m.podLost())
                .filter(m -> m.votesIn(membership))
                .min(Comparator.comparing(
                                (ObservedMember m) -> !m.broken().get().proven())
                        .thenComparing(ObservedMember::name));
        Optional<ObservedMember> lost = broken.or(() -> observed.running().stream()
                .filter(ObservedMember::podLost)
                .min(Comparator.comparing(ObservedMember::name)));
        if (lost.isEmpty()) {
            return Optional.empty();
        }
        ObservedMember member = lost.get();
        Reason reason = broken.isPresent() ? Reason.DATA_LOST : Reason.MEMBER_LOST;
        if (!LossProof.proven(member, observed.observedAt())) {
            return Optional.of(new Wait(reason, LossProof.awaiting(member), LossProof.WINDOW));
        }
        if (!observed.quorumSurvivesRemoval(member, membership)) {
            return Optional.of(new Wait(
                    Reason.QUORUM_AT_RISK,
                    (broken.isPresent() ? "broken" : "lost") + " member " + member.name()
                            + " cannot be removed without losing quorum",
                    LONG));
        }
        return Optional.of(
                broken.isPresent()
                        ? new Step.ReplaceBrokenMember(
                                member.name(), member.broken().get())
                        : new Step.RemoveLostMember(member.name()));
    }

    /**
     * Proof on both sides: the member's etcd stopped by itself, as it does once it applied its own removal (etcd-guard
     * says so), and etcd no longer lists its id. Removed by hand (`kubectl etcd leave`) or by another tool, that id can
     * never come back, so the member is replaced; it no longer votes, so quorum does not change.
     */
    private static Optional<Step> replaceRemoved(ObservedCluster observed, Membership membership) {
        return observed.running().stream()
                .filter(m -> !m.ready()
                        && m.broken().filter(ObservedMember.Broken::removed).isPresent())
                .filter(m -> m.memberId().isPresent()
                        && m.memberId().flatMap(membership::byId).isEmpty()
                        && m.entryIn(membership).isEmpty())
                .min(Comparator.comparing(ObservedMember::name))
                .map(m -> new Step.ReplaceBrokenMember(m.name(), m.broken().get()));
    }

    /** A member whose etcd crash-loops for a cause a new member would share (OOMKilled, a bad flag): named, kept. */
    static Optional<Wait> crashLooping(ObservedCluster observed) {
        return observed.running().stream()
                .filter(m -> m.broken().filter(b -> !b.dataLost()).isPresent())
                .min(Comparator.comparing(ObservedMember::name))
                .map(m -> new Wait(
                        Reason.MEMBER_CRASH_LOOPING,
                        m.name() + " crash-loops (" + m.broken().get().restarts()
                                + " restarts, last " + m.broken().get().lastExit()
                                + "); it is not replaced, a new member would fail the "
                                + "same way: fix the cause (resources, options, image) and it restarts on the corrected spec",
                        LONG));
    }

    /** Only on a converged cluster, and only past the retention the user set: a released volume is never suspect. */
    private static Optional<Step> expiredVolume(ObservedCluster observed) {
        return observed.retained().stream()
                .filter(v -> v.expires()
                        .filter(at -> !at.isAfter(observed.observedAt()))
                        .isPresent())
                .min(Comparator.comparing(ObservedCluster.RetainedVolume::pvc))
                .map(v -> new Step.DeleteRetainedVolume(v.pvc()));
    }

    /** Once auth latched, the operator's copy of root's password follows the user's Secret through etcd. */
    private static Optional<Step> rootPassword(ObservedCluster.AuthView auth) {
        if (!auth.latched()) {
            return Optional.empty();
        }
        return switch (auth.password()) {
            case UNRECORDED -> Optional.of(new Step.RecordRootPassword());
            case CHANGED -> Optional.of(new Step.RotateRootPassword());
            case ETCD_HAS_NEXT, ETCD_HAS_WANTED -> Optional.of(new Step.FinishRootPasswordChange(auth.password()));
            case IN_STEP -> Optional.empty();
        };
    }

    private Step resumeOrStop(ObservedCluster observed, int desired) {
        if (desired == 0) {
            return new Step.Converged(Reason.PAUSED);
        }
        Optional<ObservedMember> dormant =
                observed.dormant().stream().sorted(ObservedCluster.NEWEST_FIRST).findFirst();
        if (dormant.isPresent()) {
            return new Step.Wake(dormant.get().name());
        }
        return AllMembersLost.reset(observed)
                .orElseGet(() -> new Wait(Reason.ALL_MEMBERS_LOST, AllMembersLost.message(observed, List.of()), LONG));
    }

    private Optional<Step> removeOrphans(ObservedCluster observed, Membership membership) {
        for (Member member : membership.members()) {
            // while adopting, a voter no EtcdMember owns may be the running cluster's own, added after the latch
            boolean kept = observed.external().external(member) || (observed.adopting() && !member.learner());
            if (observed.ownerOf(member).isPresent() || kept) {
                continue;
            }
            int voters = membership.voters().size();
            int readyVoters = observed.readyVoters(membership);
            if (member.learner() || Quorum.holds(readyVoters, voters - 1)) {
                return Optional.of(new Step.RemoveOrphan(member.id(), member.name()));
            }
            return Optional.of(
                    new Wait(Reason.QUORUM_AT_RISK, "orphan member " + member.id() + " kept for quorum", LONG));
        }
        return Optional.empty();
    }

    private Step resize(ObservedCluster observed, Membership membership, int desired) {
        List<ObservedMember> running = observed.running();
        if (running.size() < desired) {
            Optional<ObservedMember> dormant = observed.dormant().stream().findFirst();
            if (dormant.isPresent()) {
                return new Step.Wake(dormant.get().name());
            }
            long unready = running.stream().filter(m -> !m.ready()).count();
            if (unready > 0) {
                return crashLooping(observed)
                        .orElseGet(() -> new Wait(
                                Reason.MEMBERS_NOT_READY,
                                unready + " of " + running.size() + " members not ready",
                                MEDIUM));
            }
            return new Step.CreateMember(
                    membership.learners().isEmpty()
                            ? Optional.of(InitialCluster.before(membership, observed))
                            : Optional.empty());
        }
        if (running.size() > desired) {
            if (desired == 0 && running.size() == 1) {
                return new Step.Pause(running.get(0).name());
            }
            ObservedMember victim =
                    running.stream().sorted(VICTIM_ORDER).findFirst().orElseThrow();
            if (!observed.quorumSurvivesRemoval(victim, membership)) {
                return new Wait(Reason.QUORUM_AT_RISK, "removing " + victim.name() + " now would lose quorum", LONG);
            }
            if (victim.outdated().isPresent()) {
                return Roller.retire(victim, observed, membership, minReady);
            }
            Optional<Step> move = Roller.moveLeadershipOff(victim, observed, membership);
            return move.orElseGet(() -> new Step.RemoveMember(victim.name()));
        }
        long unready = running.stream().filter(m -> !m.ready()).count();
        if (unready > 0) {
            return crashLooping(observed)
                    .orElseGet(() -> new Wait(
                            Reason.MEMBERS_NOT_READY,
                            unready + " of " + running.size() + " members not ready",
                            MEDIUM));
        }
        return new Step.Converged(Reason.RECONCILED);
    }

    private static Step unreachable(EtcdView view) {
        if (view instanceof Unreachable u) {
            return new Wait(u.reason(), u.detail(), LONG);
        }
        return new Wait(Reason.CLUSTER_UNREACHABLE, "no voter endpoint to dial", MEDIUM);
    }
}
