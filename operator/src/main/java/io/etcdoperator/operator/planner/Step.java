package io.etcdoperator.operator.planner;

import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import io.etcdoperator.etcd.Alarm;
import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.reason.RestartReason;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The single next action for a cluster. Each one is one write; the reconciler returns after it. */
public sealed interface Step {

    Reason reason();

    /** The member whose etcd this step stops, so that the pass taking it does not report that member ready. */
    default Optional<String> stops() {
        return Optional.empty();
    }

    /** The reason a pass gives when etcd refuses this step's call (a leader move, a defragment, auth). */
    default Reason refusal() {
        return Reason.ETCD_CALL_FAILED;
    }

    /**
     * A step that only records in status what etcd has already done: the next step is planned on a fresh observation
     * in the same reconcile, not a queue round later (40 s p50 with 1000 clusters forming; docs/benchmarks.md).
     */
    default boolean recordsOnly() {
        return false;
    }

    /** A change to etcd's member list: etcd refusing one (no quorum, a learner in flight) has a reason of its own. */
    sealed interface MembershipChange extends Step
            permits CreateMember, AddLearner, PromoteLearner, RemoveOrphan, AdoptionSteps.RemoveExternal {
        @Override
        default Reason refusal() {
            return Reason.MEMBERSHIP_CHANGE_REFUSED;
        }
    }

    /** Create the one seed EtcdMember (bootstrap=true, initial cluster still empty). */
    record CreateSeed() implements Step {
        public Reason reason() {
            return Reason.BOOTSTRAPPING;
        }
    }

    /** Write the seed's initial cluster (just itself) so its Pod can start with --initial-cluster-state=new. */
    record CompleteSeed(String member, String initialCluster) implements Step {
        public Reason reason() {
            return Reason.BOOTSTRAPPING;
        }
    }

    /** Record the cluster id that the seed formed; from now on it never changes. */
    record LatchClusterId(ClusterId clusterId) implements Step {
        public Reason reason() {
            return Reason.CLUSTER_DISCOVERED;
        }

        @Override
        public boolean recordsOnly() {
            return true;
        }
    }

    /**
     * Create a new EtcdMember (pending: empty initial cluster) for scale-up; with {@code addAtOnce} (no learner in
     * flight), MemberAddAsLearner for it in the same step, its initial cluster those peers plus itself.
     */
    record CreateMember(Optional<InitialCluster.Peers> addAtOnce) implements MembershipChange {
        public CreateMember() {
            this(Optional.empty());
        }

        public Reason reason() {
            return Reason.MEMBER_CREATED;
        }
    }

    /** MemberAddAsLearner, then the member may start at once with {@code initialCluster} (etcd's list plus itself). */
    record AddLearner(String member, URI peerUrl, String initialCluster) implements MembershipChange {
        public Reason reason() {
            return Reason.LEARNER_ADDED;
        }
    }

    /** Write a pending member's initial cluster, taken from etcd's member list after its learner add. */
    record WriteInitialCluster(String member, String initialCluster) implements Step {
        public Reason reason() {
            return Reason.MEMBER_JOINING;
        }
    }

    /**
     * MemberPromote, sent to {@code leader}'s member when this pass saw one (only the leader decides); etcd refuses while
     * the learner lags, which the executor reports as LearnerCatchingUp.
     */
    record PromoteLearner(String member, MemberId id, Optional<String> leader) implements MembershipChange {
        public PromoteLearner(String member, MemberId id) {
            this(member, id, Optional.empty());
        }

        public Reason reason() {
            return Reason.LEARNER_PROMOTED;
        }
    }

    /** Delete the EtcdMember; its finalizer runs MemberRemove before the Pod and PVC go. */
    record RemoveMember(String member) implements Step {
        public Reason reason() {
            return Reason.MEMBER_REMOVED;
        }
    }

    /** Delete an EtcdMember whose learner never came up; its finalizer runs MemberRemove, which never costs quorum. */
    record RemoveStuckLearner(String member) implements Step {
        public Reason reason() {
            return Reason.LEARNER_STUCK;
        }
    }

    /** MemberRemove for an etcd member that no EtcdMember of this cluster accounts for. */
    record RemoveOrphan(MemberId id, String name) implements MembershipChange {
        public Reason reason() {
            return Reason.ORPHAN_REMOVED;
        }
    }

    /** Park the last member: its Pod goes, its PVC stays (replicas: 0). */
    record Pause(String member) implements Step {
        public Reason reason() {
            return Reason.PAUSING;
        }

        /** READY=0 from this pass on: a resume latched before the next pass must not inherit READY=1. */
        @Override
        public Optional<String> stops() {
            return Optional.of(member);
        }
    }

    /** Bring a parked member back on its PVC with the same member id. */
    record Wake(String member) implements Step {
        public Reason reason() {
            return Reason.WAKING_DORMANT;
        }
    }

    /** Restart a PVC member on the latched spec: its EtcdMember takes the target, its Pod is deleted and rebuilt. */
    record RestartMember(String member, RestartReason why) implements Step {
        public Reason reason() {
            return Reason.MEMBER_ROLLING;
        }

        @Override
        public Optional<String> stops() {
            return Optional.of(member);
        }
    }

    /** Create a new member on the latched spec that will take an outdated memory member's place (learner first). */
    record ReplaceMember(String replaces, RestartReason why) implements Step {
        public Reason reason() {
            return Reason.MEMBER_REPLACING;
        }
    }

    /** Delete an outdated memory member once its replacement is a ready voter (or it is down anyway). */
    record RetireMember(String member, RestartReason why) implements Step {
        public Reason reason() {
            return Reason.MEMBER_REPLACING;
        }
    }

    /** A memory member lost its Pod and data: delete it (MemberRemove through its finalizer); scale-up replaces it. */
    record RemoveLostMember(String member) implements Step {
        public Reason reason() {
            return Reason.MEMBER_LOST;
        }
    }

    /**
     * Delete a member whose data is lost, or that etcd removed (its finalizer runs MemberRemove of the old id, if still
     * listed; the volume is released and kept); scale-up joins a new member as a learner with a fresh directory.
     */
    record ReplaceBrokenMember(String member, ObservedMember.Broken why) implements Step {
        public Reason reason() {
            return why.dataLost() ? Reason.DATA_LOST : why.removed() ? Reason.MEMBER_LEFT : Reason.MEMBER_CRASH_LOOPING;
        }
    }

    /** Delete a member whose node is not Ready past the grace time (its finalizer asks the other voters to remove it). */
    record ReplaceNodeLostMember(String member, String node, Duration notReadyFor) implements Step {
        public Reason reason() {
            return Reason.NODE_NOT_READY;
        }
    }

    /** Delete a removed member's Pod with grace period 0: its node is not Ready, so no kubelet will confirm it. */
    record ForceDeletePod(String pod, String node) implements Step {
        public Reason reason() {
            return Reason.POD_FORCE_DELETED;
        }
    }

    /** MoveLeader from the leader to an up-to-date voter, so the leader is never restarted or removed while leading. */
    record MoveLeader(String leader, String transferee, MemberId transfereeId) implements Step {
        public Reason reason() {
            return Reason.LEADER_MOVED;
        }
    }

    /** Grow a PVC member's volume to the latched storage.size (no restart: the volume expands under etcd). */
    record ExpandVolume(String member) implements Step {
        public Reason reason() {
            return Reason.VOLUME_EXPANDING;
        }
    }

    /** etcd already requires authentication (a crash after AuthEnable, a restored snapshot): latch status.authEnabled. */
    record LatchAuth() implements Step {
        public Reason reason() {
            return Reason.AUTH_ENABLED;
        }
    }

    /** The cluster converged: create user root with the Secret's password, grant role root, AuthEnable. */
    record EnableAuth() implements Step {
        public Reason reason() {
            return Reason.AUTH_ENABLED;
        }
    }

    /** Start a defrag run: per voter, Pending or Skipped (BelowThreshold), its role and db size now; a status write. */
    record StartDefrag(String run, List<DefragStart> members) implements Step {
        public Reason reason() {
            return Reason.DEFRAG_STARTED;
        }
    }

    /** One member's entry when a run starts. */
    record DefragStart(String member, boolean leader, boolean wanted, long dbSize, long dbSizeInUse) {}

    /**
     * Maintenance Defragment of one member, bounded by its own timeout. {@code run} names the EtcdDefrag it belongs to;
     * empty when it reclaims space after a NOSPACE alarm (the keyspace is compacted first).
     */
    record Defragment(String member, Optional<String> run) implements Step {
        public Reason reason() {
            return run.isPresent() ? Reason.MEMBER_DEFRAGMENTED : Reason.SPACE_QUOTA_EXCEEDED;
        }
    }

    /** The run is over: Complete, or Failed (its leader failed, a member failed, or its deadline passed). */
    record FinishDefrag(String run, boolean failed, String detail) implements Step {
        public Reason reason() {
            return failed ? Reason.DEFRAG_FAILED : Reason.DEFRAG_FINISHED;
        }
    }

    /** Every voter has room again: disarm the NOSPACE alarms so writes are accepted. */
    record DisarmSpaceAlarms(List<Alarm> alarms) implements Step {
        public Reason reason() {
            return Reason.ALARM_DISARMED;
        }
    }

    /** The operator records the root password etcd has (the user's, which it just dialled with) as its own copy. */
    record RecordRootPassword() implements Step {
        public Reason reason() {
            return Reason.ROOT_PASSWORD_RECORDED;
        }
    }

    /** The user's Secret holds a new root password: etcd takes it (UserChangePassword), then the operator's copy. */
    record RotateRootPassword() implements Step {
        public Reason reason() {
            return Reason.ROOT_PASSWORD_CHANGED;
        }
    }

    /** etcd already has the password {@code accepted} names (a change cut short): the operator's copy follows. */
    record FinishRootPasswordChange(ObservedCluster.RootPassword accepted) implements Step {
        public Reason reason() {
            return Reason.ROOT_PASSWORD_CHANGED;
        }
    }

    /** A voter whose Pod could not be scheduled for the progress deadline is deleted; a new member replaces it. */
    record ReplaceUnrunnableMember(String member, String why, Duration pendingFor) implements Step {
        public Reason reason() {
            return Reason.POD_UNSCHEDULABLE;
        }
    }

    /** A released volume whose retention (spec.retainedVolumeSeconds) ran out is deleted, as the user asked. */
    record DeleteRetainedVolume(String pvc) implements Step {
        public Reason reason() {
            return Reason.RETAINED_VOLUME_DELETED;
        }
    }

    /** A step of quorum recovery or of a reset after every member lost its data; the records are {@link QuorumLossSteps}'. */
    sealed interface Recovering extends Step
            permits QuorumLossSteps.StartQuorumRecovery,
                    QuorumLossSteps.ForceNewCluster,
                    QuorumLossSteps.DiscardMembers,
                    QuorumLossSteps.EndForceNewCluster,
                    QuorumLossSteps.ReleaseAllMembers,
                    QuorumLossSteps.ForgetCluster,
                    QuorumLossSteps.ClearRecoveryRequest {}

    /** A step of the adoption of a running etcd ({@link Adoption}); the records are {@link AdoptionSteps}'. */
    sealed interface Adopting extends Step
            permits AdoptionSteps.Adopt,
                    AdoptionSteps.HandOverLeadership,
                    AdoptionSteps.RemoveExternal,
                    AdoptionSteps.Finish {}

    /** One write to a cluster-wide object or TLS material; the pass plans again on what it left ({@link ObjectSteps}). */
    sealed interface Shaping extends Step permits ObjectSteps.Write, TlsWrite {}

    /** A step whose one write is the EtcdCluster's status: the cluster controller's report carries it out. */
    sealed interface StatusOnly extends Step {}

    /** spec.tls asks for cert-manager, whose Certificate API is not served: touch nothing, say so. */
    record AwaitCertManager() implements StatusOnly {
        public Reason reason() {
            return Reason.CERT_MANAGER_NOT_INSTALLED;
        }
    }

    /** The first spec is refused: nothing is created, the refusals go to Degraded and Available. */
    record RefuseSpec(List<Refusal> refusals) implements StatusOnly {
        public Reason reason() {
            return refusals.getFirst().reason();
        }
    }

    /** Adopt the spec as the target (status.observed) on a new deadline: the first one, or see {@link TargetLatch}. */
    record LatchTarget(Reason reason) implements StatusOnly {}

    /** A cluster cozystack's operator made: its target gains the spec's tls, auth and bootstrap ({@link Refusals}). */
    record AdoptImmutables(ObservedClusterSpec target) implements StatusOnly {
        public Reason reason() {
            return Reason.IMMUTABLES_ADOPTED;
        }
    }

    /** The deadline passed, the target unreached: nothing is done until the spec or the deadline changes. */
    record DeadlineExceeded(Reason reason) implements Step {}

    /** A Service the cluster needs is owned by another object: nothing is done until that is resolved. */
    record ServiceConflict(String detail) implements Step {
        public Reason reason() {
            return Reason.RESOURCE_CONFLICT;
        }
    }

    /** Nothing to do now; look again after {@code recheck}. */
    record Wait(Reason reason, String detail, Duration recheck) implements Step {}

    /** The membership matches the target. */
    record Converged(Reason reason) implements Step {}
}
