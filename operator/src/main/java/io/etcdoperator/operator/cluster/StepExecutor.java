package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.AdditionalMetadata;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.operator.defrag.DefragRuns;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.planner.EtcdView;
import io.etcdoperator.operator.planner.InitialCluster;
import io.etcdoperator.operator.planner.MemberMaterial;
import io.etcdoperator.operator.planner.ObjectSteps;
import io.etcdoperator.operator.planner.OwnedObjects;
import io.etcdoperator.operator.planner.QuorumLossSteps;
import io.etcdoperator.operator.planner.Step;
import io.etcdoperator.operator.planner.TlsWrite;
import io.etcdoperator.operator.reads.SecretReads;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.EtcdMembers;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.tls.IssuedTlsObserver;
import io.etcdoperator.operator.tls.IssuedTlsSteps;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Performs exactly one {@link Step}: one Kubernetes write or one etcd call (a defragment, a membership change). */
public class StepExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(StepExecutor.class);
    /** After a change: the next step is planned on a fresh observation right away; never a second step in this pass. */
    static final Duration SOON = Duration.ofMillis(100);
    /** After a step that only recorded ({@link Step#recordsOnly()}): the next pass runs in the same reconcile. */
    static final Duration AT_ONCE = Duration.ZERO;

    static final Duration STEADY = Duration.ofSeconds(30);
    /**
     * etcd refuses a member add until the member asked has been connected to every voter for 5 s, and a promotion until
     * the learner caught up: both open on their own, so asking again shortly costs one cheap call, not a back-off.
     */
    static final Duration ETCD_GATE = Duration.ofMillis(200);

    /**
     * What happened: the reason to report, a message, when to look again, a cluster id to latch, whether auth is now
     * on, whether it is a problem worth a warning event when it first shows, and whether the latched cluster id (and
     * what was latched with it) is to be forgotten so the next pass bootstraps anew.
     */
    public record Outcome(
            Reason reason,
            String message,
            Duration recheck,
            Optional<ClusterId> latch,
            boolean authEnabled,
            boolean warning,
            boolean unlatch) {
        Outcome(
                Reason reason,
                String message,
                Duration recheck,
                Optional<ClusterId> latch,
                boolean authEnabled,
                boolean warning) {
            this(reason, message, recheck, latch, authEnabled, warning, false);
        }

        static Outcome of(Reason reason, String message, Duration recheck) {
            return new Outcome(reason, message, recheck, Optional.empty(), false, false);
        }

        static Outcome problem(Reason reason, String message, Duration recheck) {
            return new Outcome(reason, message, recheck, Optional.empty(), false, true);
        }

        /** A change made: a Normal event and an info line say so, and the next pass comes soon. */
        static Outcome reported(EventRecorder events, EtcdCluster cluster, Reason reason, String message) {
            events.normal(cluster, reason, message);
            LOG.atInfo().addKeyValue("reason", reason.reason()).log(message);
            return of(reason, message, SOON);
        }
    }

    private final KubernetesClient client;
    private final EventRecorder events;
    private final RootAuth rootAuth;
    private final MaintenanceSteps maintenance;
    private final Adopter adopter;
    private final Clock clock;
    private final RetainedVolumes volumes;
    private final LeaseCheck lease;
    private final RecoverySteps recovery;
    private final EtcdMemberWrites members;
    private final MembershipSteps membership;
    private final ReplacementSteps replacement;
    private final ClusterObjects objects;
    private final IssuedTlsSteps tls;

    StepExecutor(
            KubernetesClient client,
            SecretReads secrets,
            EventRecorder events,
            Clock clock,
            SpaceRecoveries spaceRecoveries,
            LeaseCheck lease,
            ClusterObjects objects) {
        this.client = client;
        this.objects = objects;
        this.tls = new IssuedTlsSteps(client, events);
        this.lease = lease;
        this.clock = clock;
        this.events = events;
        this.rootAuth = new RootAuth(client, secrets, events, lease);
        this.volumes = new RetainedVolumes(client, events, clock);
        this.recovery = new RecoverySteps(client, events, clock, volumes, lease);
        this.members = new EtcdMemberWrites(client);
        this.membership = new MembershipSteps(client, members, events, lease);
        this.replacement = new ReplacementSteps(client, events, volumes, lease, members);
        this.adopter = new Adopter(events, lease, clock);
        this.maintenance = new MaintenanceSteps(new DefragRuns(client), events, clock, spaceRecoveries);
    }

    /** {@code material}: the operator-issued TLS material a member created by this step starts with, if any. */
    public Outcome execute(
            Step step,
            EtcdCluster cluster,
            ClusterObserver.Observation observation,
            Optional<MemberMaterial> material) {
        try {
            return perform(step, cluster, observation, material);
        } catch (EtcdException e) {
            // etcd refuses membership changes for ~5s after a join ("unhealthy cluster"); look again soon, change
            // nothing
            LOG.atInfo()
                    .addKeyValue("step", step.getClass().getSimpleName())
                    .addKeyValue("error", e.getMessage())
                    .log("etcd refused the step; will retry");
            return Outcome.of(
                    step.refusal(), step.reason().reason() + " refused by etcd: " + e.getMessage(), ETCD_GATE);
        }
    }

    private Outcome perform(
            Step step,
            EtcdCluster cluster,
            ClusterObserver.Observation observation,
            Optional<MemberMaterial> material) {
        Optional<EtcdAdmin> etcd = observation.etcd();
        return switch (step) {
            case Step.CreateSeed s -> createSeed(cluster, s, material);
            case Step.CompleteSeed s -> completeSeed(cluster, s);
            case Step.LatchClusterId s -> discovered(cluster, s, observation);
            case Step.CreateMember s -> membership.create(cluster, s, observation, material);
            case Step.AddLearner s -> membership.addLearner(cluster, s, etcd.orElseThrow());
            case Step.WriteInitialCluster s -> initialCluster(cluster, s);
            case Step.PromoteLearner s -> membership.promote(cluster, s, observation);
            case Step.RemoveMember s -> membership.remove(cluster, s, observation);
            case Step.ReplaceBrokenMember s -> replacement.broken(cluster, s, observation);
            case Step.RemoveStuckLearner s -> replacement.stuckLearner(cluster, s);
            case Step.ReplaceMember s -> replacement.surge(cluster, s, material);
            case Step.RetireMember s -> replacement.retire(cluster, s);
            case Step.RemoveLostMember s -> replacement.lost(cluster, s, observation);
            case Step.ReplaceNodeLostMember s -> replacement.nodeLost(cluster, s, observation);
            case Step.DeleteRetainedVolume s -> replacement.deleteVolume(cluster, s);
            case Step.ReplaceUnrunnableMember s -> replacement.unrunnable(cluster, s, observation);
            case Step.ForceDeletePod s -> replacement.forceDeletePod(cluster, s);
            case Step.RemoveOrphan s -> membership.removeOrphan(cluster, s, etcd.orElseThrow());
            case QuorumLossSteps.StartQuorumRecovery s -> recovery.start(cluster, s);
            case QuorumLossSteps.ForceNewCluster s -> recovery.force(cluster, s);
            case QuorumLossSteps.DiscardMembers s -> recovery.discard(cluster, s, observation);
            case QuorumLossSteps.EndForceNewCluster s -> recovery.end(cluster, s);
            case QuorumLossSteps.ClearRecoveryRequest s -> recovery.clear(cluster, s);
            case QuorumLossSteps.ReleaseAllMembers s -> recovery.releaseAll(cluster, s, observation);
            case QuorumLossSteps.ForgetCluster s -> recovery.forget(cluster, s);
            case Step.Pause s -> dormant(cluster, s.member(), true, s.reason());
            case Step.Wake s -> dormant(cluster, s.member(), false, s.reason());
            case Step.RestartMember s -> restart(cluster, s, observation);
            case Step.MoveLeader s -> moveLeader(cluster, s, observation);
            case Step.ExpandVolume s -> expand(cluster, s, observation);
            case Step.LatchAuth s ->
                rootAuth.latch(cluster, "etcd already requires authentication; dialing as root from now on");
            case Step.EnableAuth s -> rootAuth.enable(cluster, etcd.orElseThrow());
            case Step.RecordRootPassword s -> rootAuth.record(cluster);
            case Step.RotateRootPassword s -> rootAuth.rotate(cluster, etcd.orElseThrow());
            case Step.FinishRootPasswordChange s -> rootAuth.finish(cluster, s.accepted());
            case Step.StartDefrag s -> maintenance.start(cluster, s);
            case Step.Defragment s -> maintenance.defragment(cluster, s, observation);
            case Step.FinishDefrag s -> maintenance.finish(cluster, s);
            case Step.DisarmSpaceAlarms s -> maintenance.disarm(cluster, s, etcd.orElseThrow());
            case Step.Adopting s -> adopter.perform(cluster, s, etcd);
            case Step.Wait w -> waiting(w);
            case Step.Converged c -> Outcome.of(c.reason(), c.reason().description(), STEADY);
            case Step.DeadlineExceeded d ->
                Outcome.problem(d.reason(), d.reason().description(), STEADY);
            case Step.ServiceConflict c -> Outcome.problem(c.reason(), c.detail(), STEADY);
            case Step.StatusOnly s -> throw new IllegalArgumentException(s + " is the report's to carry out");
            case Step.Shaping s -> throw new IllegalArgumentException(s + " is written by shape(), before the step");
        };
    }

    /** One write of a Service, a Certificate or the PodDisruptionBudget; answers the objects as this pass now takes them. */
    public OwnedObjects shape(ObjectSteps.Write step, EtcdCluster cluster, OwnedObjects before) {
        AdditionalMetadata metadata = cluster.getStatus().getObserved().getAdditionalMetadata();
        return switch (step) {
            case ObjectSteps.WriteService s -> before.with(s.service(), objects.write(cluster, s, metadata));
            case ObjectSteps.CreateCertificate s -> before.withCertificate(s.certificate(), objects.create(cluster, s));
            case ObjectSteps.WriteBudget s -> before.with(objects.write(cluster, s, metadata));
            case ObjectSteps.DeleteBudget s -> before.with(objects.delete(cluster));
        };
    }

    /** One write of operator-issued TLS, from the Secrets the pass observed. */
    public void issue(TlsWrite step, EtcdCluster cluster, IssuedTlsObserver.State material, Instant now) {
        tls.write(step, cluster, material, now);
    }

    private Outcome initialCluster(EtcdCluster cluster, Step.WriteInitialCluster s) {
        members.writeInitialCluster(cluster, s.member(), s.initialCluster());
        return changed(
                cluster, s.reason(), "member " + s.member() + " may start: initial cluster " + s.initialCluster());
    }

    /** Park a member (its Pod deleted, its data kept) or wake it. */
    private Outcome dormant(EtcdCluster cluster, String member, boolean dormant, Reason reason) {
        members.patchSpec(cluster, member, Map.of("dormant", dormant));
        return changed(
                cluster,
                reason,
                dormant ? "member " + member + " parked: Pod deleted, data kept" : "waking dormant member " + member);
    }

    private Outcome discovered(EtcdCluster cluster, Step.LatchClusterId s, ClusterObserver.Observation observation) {
        recordSeedMemberId(cluster, observation);
        events.normal(cluster, s.reason(), "etcd cluster " + s.clusterId() + " discovered");
        LOG.atInfo().addKeyValue("clusterID", s.clusterId()).log("etcd cluster discovered");
        return new Outcome(
                s.reason(),
                "etcd cluster " + s.clusterId() + " discovered",
                SOON,
                Optional.of(s.clusterId()),
                false,
                false);
    }

    private Outcome completeSeed(EtcdCluster cluster, Step.CompleteSeed s) {
        members.writeInitialCluster(cluster, s.member(), s.initialCluster());
        return changed(cluster, s.reason(), "seed " + s.member() + " may start: initial cluster " + s.initialCluster());
    }

    /** Each later write checks the Lease: a crash or a lost Lease between them is resumed by CompleteSeed. */
    private Outcome createSeed(EtcdCluster cluster, Step.CreateSeed s, Optional<MemberMaterial> material) {
        EtcdMember seed = members.create(cluster, true, material);
        lease.ensureHeld();
        members.patchStatus(seed, Map.of("isVoter", true));
        // its name came from the API server; it may start at once (should this fail, the planner asks CompleteSeed)
        String initialCluster = InitialCluster.seed(name(seed), Names.peerUrl(seed));
        lease.ensureHeld();
        members.writeInitialCluster(cluster, name(seed), initialCluster);
        return changed(
                cluster,
                s.reason(),
                "bootstrapping single-member cluster from seed " + name(seed) + "; initial cluster " + initialCluster);
    }

    /** The EtcdMember takes the latched target (optimistic update), then its Pod goes; the member controller rebuilds it. */
    private Outcome restart(EtcdCluster cluster, Step.RestartMember s, ClusterObserver.Observation observation) {
        EtcdMember member = observation.member(s.member()).orElseThrow();
        String from = member.getSpec().getVersion();
        EtcdMember wanted = retarget(cluster, member);
        lease.ensureHeld();
        client.pods().inNamespace(ns(cluster)).withName(s.member()).delete();
        String versions = from.equals(wanted.getSpec().getVersion())
                ? ""
                : ", " + from + " -> " + wanted.getSpec().getVersion();
        return changed(
                cluster,
                s.reason(),
                "restarting member " + s.member() + " (" + s.why().reason() + versions + "); same member id and data");
    }

    /** The API server refuses the resize unless the StorageClass allows expansion: that refusal is the named reason. */
    private Outcome expand(EtcdCluster cluster, Step.ExpandVolume s, ClusterObserver.Observation observation) {
        var size = cluster.getStatus().getObserved().getStorage().getSize();
        try {
            client.persistentVolumeClaims()
                    .inNamespace(ns(cluster))
                    .withName(Names.dataPvc(s.member()))
                    .edit(pvc -> {
                        pvc.getSpec().getResources().getRequests().put("storage", size);
                        return pvc;
                    });
        } catch (KubernetesClientException e) {
            boolean refusedResize = (e.getCode() == 403 || e.getCode() == 422)
                    && e.getStatus() != null
                    && e.getStatus().getMessage() != null
                    && e.getStatus().getMessage().toLowerCase().contains("resize");
            if (!refusedResize) {
                throw e; // RBAC or anything else is not the StorageClass's answer
            }
            return Outcome.problem(
                    Reason.VOLUME_EXPANSION_UNSUPPORTED,
                    "cannot grow " + Names.dataPvc(s.member()) + " to " + size + ": "
                            + e.getStatus().getMessage(),
                    Duration.ofMinutes(5));
        }
        lease.ensureHeld();
        observation.member(s.member()).ifPresent(m -> retarget(cluster, m));
        return changed(cluster, s.reason(), "growing the volume of member " + s.member() + " to " + size);
    }

    /**
     * The EtcdMember takes the latched target's rollable fields. A JSON patch computed from the edit (the operator's
     * role may patch EtcdMembers, not update them), which also removes fields the target no longer has.
     */
    private EtcdMember retarget(EtcdCluster cluster, EtcdMember member) {
        EtcdMember wanted = EtcdMembers.retarget(member, cluster.getStatus().getObserved());
        var json = client.getKubernetesSerialization();
        if (!json.asJson(member.getSpec()).equals(json.asJson(wanted.getSpec()))) {
            client.resources(EtcdMember.class)
                    .inNamespace(ns(cluster))
                    .withName(member.getMetadata().getName())
                    .edit(m -> {
                        m.setSpec(EtcdMembers.retarget(m, cluster.getStatus().getObserved())
                                .getSpec());
                        return m;
                    });
        }
        return wanted;
    }

    private Outcome moveLeader(EtcdCluster cluster, Step.MoveLeader s, ClusterObserver.Observation observation) {
        EtcdMember leader = observation.member(s.leader()).orElseThrow();
        observation.etcd().orElseThrow().moveLeader(Names.clientUrl(leader), s.transfereeId());
        return changed(
                cluster,
                s.reason(),
                "moved leadership from " + s.leader() + " to " + s.transferee() + " (" + s.transfereeId() + ") before "
                        + s.leader() + " restarts, leaves or is defragmented");
    }

    /** The seed's etcd member id, from the member list that proved the cluster formed, unless its EtcdMember has it. */
    private void recordSeedMemberId(EtcdCluster cluster, ClusterObserver.Observation observation) {
        if (!(observation.cluster().etcd() instanceof EtcdView.Reached reached)) {
            return;
        }
        observation
                .cluster()
                .seed()
                .filter(seed -> seed.memberId().isEmpty())
                .ifPresent(seed -> reached.membership()
                        .entryOf(seed.name(), seed.peerUrl())
                        .ifPresent(entry -> members.recordMemberId(
                                cluster, seed.name(), entry.id().hex())));
    }

    /**
     * The data itself fills the quota, a person's recovery request was refused, a member crash-loops on the spec: only
     * a person can end these waits, so they are warnings (an event when the reason first shows).
     */
    private static Outcome waiting(Step.Wait w) {
        boolean personal = w.reason() == Reason.SPACE_QUOTA_FULL
                || w.reason() == Reason.QUORUM_RECOVERY_REFUSED
                || w.reason() == Reason.MEMBER_CRASH_LOOPING;
        return personal
                ? Outcome.problem(w.reason(), w.detail(), w.recheck())
                : Outcome.of(w.reason(), w.detail(), w.recheck());
    }

    private Outcome changed(EtcdCluster cluster, Reason reason, String message) {
        return Outcome.reported(events, cluster, reason, message);
    }

    /** A merge patch of only the given status fields of a member (the cluster report's). */
    void patchStatus(EtcdMember member, Map<String, Object> fields) {
        members.patchStatus(member, fields);
    }

    private static String ns(EtcdCluster cluster) {
        return cluster.getMetadata().getNamespace();
    }

    private static String name(EtcdMember m) {
        return m.getMetadata().getName();
    }
}
