package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import io.etcdoperator.etcd.Alarm;
import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.defrag.DefragRuns;
import io.etcdoperator.operator.events.InstantAnnotation;
import io.etcdoperator.operator.planner.ClaimSize;
import io.etcdoperator.operator.planner.EtcdView;
import io.etcdoperator.operator.planner.ExternalMembers;
import io.etcdoperator.operator.planner.Maintenance;
import io.etcdoperator.operator.planner.ObservedCluster;
import io.etcdoperator.operator.planner.ObservedMember;
import io.etcdoperator.operator.planner.SpecRules;
import io.etcdoperator.operator.planner.StrandedPods;
import io.etcdoperator.operator.reads.CachePass;
import io.etcdoperator.operator.reads.KubeReads;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.reason.RestartReason;
import io.etcdoperator.operator.resources.BackendQuota;
import io.etcdoperator.operator.resources.MemberPodStatus;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.resources.PodRevisions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the world for one pass: EtcdMembers and their Pods, etcd's member list, each ready member's endpoint status,
 * and (only while it matters) whether etcd requires authentication. The Kubernetes objects come from the
 * {@link KubeReads} of the pass: a step is only ever planned for execution on the API server's view (CachePass).
 */
public class ClusterObserver {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterObserver.class);

    /** The observation plus the objects and the cluster's pooled etcd connection (if it answered) for the executor. */
    public record Observation(ObservedCluster cluster, List<EtcdMember> members, Optional<EtcdAdmin> etcd) {

        Observation withExternal(ExternalMembers external) {
            return new Observation(cluster.withExternal(external), members, etcd);
        }

        public Optional<EtcdMember> member(String name) {
            return members.stream()
                    .filter(m -> m.getMetadata().getName().equals(name))
                    .findFirst();
        }
    }

    private final KubernetesClient client;
    private final EtcdDialer dialer;
    private final NodeReadiness nodes;
    private final SpaceRecoveries spaceRecoveries;
    private final LossEvidence evidence;
    private final RootDial rootDial;
    private final AllLostRecourse recourse;
    private final PodRevisions revisions = new PodRevisions();

    ClusterObserver(
            KubernetesClient client, EtcdDialer dialer, SpaceRecoveries spaceRecoveries, LossEvidence evidence) {
        this.client = client;
        this.evidence = evidence;
        this.rootDial = new RootDial(dialer);
        this.recourse = new AllLostRecourse(client);
        this.dialer = dialer;
        this.spaceRecoveries = spaceRecoveries;
        this.nodes = new NodeReadiness(client);
    }

    /** Everything one pass decides on, the Kubernetes objects from {@code reads}. */
    public Observation observe(EtcdCluster cluster, Instant now, KubeReads reads) {
        ExternalMembers external = Adopted.of(cluster);
        Observation seen = observe(cluster, now, reads, external);
        if (seen.etcd().isPresent() && seen.cluster().etcd() instanceof EtcdView.Reached reached) {
            return seen.withExternal(Adopted.answered(external, seen.etcd().get(), reached.membership()));
        }
        return seen.withExternal(external);
    }

    private Observation observe(EtcdCluster cluster, Instant now, KubeReads reads, ExternalMembers external) {
        String ns = cluster.getMetadata().getNamespace();
        String name = cluster.getMetadata().getName();
        List<EtcdMember> members = reads.members(ns, name);
        Map<String, Pod> labelled = byName(reads.pods(ns, name));
        Map<String, Pod> pods = MemberPodIdentity.byOwner(
                members, labelled, pod -> reads.pod(ns, pod).orElse(null));
        ObservedClusterSpec target = cluster.getStatus().getObserved();
        Map<String, PersistentVolumeClaim> pvcs = claims(ns, name, target, reads);
        List<EtcdDefrag> defrags = reads.defrags(ns);
        Optional<ClusterId> clusterId = Optional.ofNullable(cluster.getStatus().getClusterID())
                .filter(s -> !s.isBlank())
                .map(ClusterId::parse);
        // the members' own Pods and the labelled ones: a stranded Pod's member is gone, so only the label finds it
        Set<Pod> all = new HashSet<>(labelled.values());
        all.addAll(pods.values());
        Map<String, ObservedMember.NodeDown> down = nodes.down(all);
        List<ObservedCluster.StrandedPod> stranded = StrandedPods.of(members, labelled, down);
        Optional<Instant> restartAt = restartAt(cluster);
        Optional<Maintenance.QuorumRecovery> recovery = RecoveryRequest.read(cluster, members, pods);
        List<URI> endpoints =
                VoterEndpoints.dialled(cluster, members, pods.keySet(), recovery, clusterId.isPresent(), external);
        ObservedCluster.AuthView notAsked = authView(cluster, Optional.empty());
        Maintenance unreached = new Maintenance(List.of(), Maintenance.DEFAULT_QUOTA, Optional.empty(), recovery);
        if (endpoints.isEmpty()) {
            List<ObservedMember> seen =
                    observed(members, pods, pvcs, target, restartAt, now, null, null, cluster, down);
            return new Observation(
                    new ObservedCluster(
                            clusterId,
                            seen,
                            EtcdView.NOT_ASKED,
                            notAsked,
                            unreached,
                            now,
                            stranded,
                            recourse.of(cluster, seen)),
                    members,
                    Optional.empty());
        }
        try {
            RootPasswords.View passwords = dialer.passwords(cluster);
            RootDial.Dialled dialled = rootDial.dial(cluster, endpoints, passwords);
            EtcdAdmin etcd = dialled.etcd();
            Membership membership = dialled.membership();
            List<ObservedMember> observed =
                    observed(members, pods, pvcs, target, restartAt, now, etcd, membership, cluster, down);
            ObservedCluster.AuthView auth =
                    authView(cluster, probeAuth(cluster, etcd, clusterId.isPresent()), dialled.password());
            ObservedCluster seen = new ObservedCluster(
                    clusterId,
                    observed,
                    new EtcdView.Reached(membership),
                    auth,
                    maintenance(cluster, recovery, etcd, defrags, now, skipAlarms(auth, membership, observed)),
                    now,
                    stranded,
                    recourse.of(cluster, observed),
                    RetainedVolumes.observed(pvcs.values(), cluster.getSpec().getRetainedVolumeSeconds()));
            return new Observation(seen, members, Optional.of(etcd));
        } catch (EtcdException | EtcdDialer.MissingMaterialException e) {
            // the next pass dials afresh: a kept channel would wait out gRPC's reconnect back-off (about 1 s, growing)
            // after a seed that was not up yet, and see it that much later
            dialer.discard(cluster);
            EtcdView view = new EtcdView.Unreachable(reasonOf(e, cluster), e.getMessage());
            List<ObservedMember> seen =
                    observed(members, pods, pvcs, target, restartAt, now, null, null, cluster, down);
            return new Observation(
                    new ObservedCluster(
                            clusterId, seen, view, notAsked, unreached, now, stranded, recourse.of(cluster, seen)),
                    members,
                    Optional.empty());
        }
    }

    /** A Memory cluster's members have no claims (the medium is immutable): nothing to read, nothing to release. */
    private static Map<String, PersistentVolumeClaim> claims(
            String ns, String name, ObservedClusterSpec target, KubeReads reads) {
        return target != null && SpecRules.memory(target.getStorage()) ? Map.of() : byName(reads.volumes(ns, name));
    }

    private static <R extends HasMetadata> Map<String, R> byName(List<R> objects) {
        return objects.stream()
                .collect(Collectors.toMap(o -> o.getMetadata().getName(), Function.identity(), (a, b) -> a));
    }

    private List<ObservedMember> observed(
            List<EtcdMember> members,
            Map<String, Pod> pods,
            Map<String, PersistentVolumeClaim> pvcs,
            ObservedClusterSpec target,
            Optional<Instant> restartAt,
            Instant now,
            EtcdAdmin etcd,
            Membership membership,
            EtcdCluster cluster,
            Map<String, ObservedMember.NodeDown> down) {
        String uid = cluster.getMetadata().getUid();
        List<ObservedMember> out = new ArrayList<>();
        Map<String, String> secretVersions = new HashMap<>();
        for (EtcdMember listed : members) {
            EtcdMember m = TlsSecretLookup.stamped(dialer.secrets(), listed, secretVersions);
            Pod pod = pods.get(m.getMetadata().getName());
            Optional<EndpointStatus> endpoint =
                    etcd == null ? Optional.empty() : endpointStatus(m, pod, etcd, membership, now);
            PersistentVolumeClaim pvc = pvcs.get(Names.dataPvc(m.getMetadata().getName()));
            boolean formed = cluster.getStatus().getClusterID() != null;
            Optional<RestartReason> why =
                    MemberObservations.outdated(m, pod, target, restartAt, now, revisions, formed);
            Optional<ObservedMember.NodeDown> nodeDown = Optional.ofNullable(pod)
                    .filter(p -> !MemberPodStatus.ready(p))
                    .map(p -> down.get(p.getSpec().getNodeName()));
            out.add(noted(
                    cluster,
                    MemberObservations.toObserved(
                            m,
                            uid,
                            pod,
                            why,
                            endpoint,
                            MemberObservations.servesBeforeProbe(m, pod, endpoint, now),
                            ClaimSize.behind(pvc, target),
                            nodeDown,
                            PodScheduling.unrunnable(pod, PodScheduling.progressDeadline(cluster))),
                    now));
        }
        if (!CachePass.running()) {
            evidence.retain(
                    cluster,
                    members.stream().map(m -> m.getMetadata().getName()).collect(Collectors.toSet()));
        }
        return out;
    }

    /** Only what the API server showed counts as a sighting: a cache may show a past the member has left. */
    private ObservedMember noted(EtcdCluster cluster, ObservedMember member, Instant now) {
        return CachePass.running() ? evidence.seen(cluster, member) : evidence.note(cluster, member, now);
    }

    /**
     * With auth on, the Alarm call is the pass's one call etcd checks the token on (member list and Status take none):
     * without it a root password changed behind the operator went unseen while the channel stayed open.
     */
    private static boolean skipAlarms(
            ObservedCluster.AuthView auth, Membership membership, List<ObservedMember> observed) {
        return !auth.latched() && noAlarmInStatus(membership, statuses(observed));
    }

    /**
     * etcd lists its active alarms in each member's Status errors: when every member etcd lists answered with none,
     * there is none, and the Alarm call is not needed (docs/etcd-client.md). Any error, or a member not asked: ask.
     */
    static boolean noAlarmInStatus(Membership membership, List<EndpointStatus> statuses) {
        Set<MemberId> answered = statuses.stream().map(EndpointStatus::memberId).collect(Collectors.toSet());
        Set<MemberId> listed = membership.members().stream().map(Member::id).collect(Collectors.toSet());
        return !listed.isEmpty()
                && answered.equals(listed)
                && statuses.stream().allMatch(s -> s.errors().isEmpty());
    }

    private static List<EndpointStatus> statuses(List<ObservedMember> observed) {
        return observed.stream()
                .map(ObservedMember::endpoint)
                .flatMap(Optional::stream)
                .toList();
    }

    /**
     * Alarms (a CORRUPT alarm must stop everything even when no member looks unhealthy), the quota the members run
     * with, and the oldest unfinished EtcdDefrag of the cluster.
     */
    private Maintenance maintenance(
            EtcdCluster cluster,
            Optional<Maintenance.QuorumRecovery> recovery,
            EtcdAdmin etcd,
            List<EtcdDefrag> defrags,
            Instant now,
            boolean noAlarmInStatus) {
        List<Alarm> alarms;
        boolean observedAlarms = true;
        try {
            alarms = noAlarmInStatus ? List.of() : etcd.alarms();
        } catch (EtcdException e) {
            observedAlarms = false;
            LOG.atDebug().addKeyValue("error", e.getMessage()).log("alarms not observed");
            alarms = List.of();
        }
        ObservedClusterSpec target = cluster.getStatus().getObserved();
        long quota = target == null
                ? Maintenance.DEFAULT_QUOTA
                : BackendQuota.bytes(target.getOptions(), target.getStorage());
        if (observedAlarms && alarms.stream().noneMatch(a -> a.kind() == Alarm.Kind.NOSPACE)) {
            spaceRecoveries.forget(cluster);
        }
        return new Maintenance(
                alarms,
                quota,
                DefragRuns.current(cluster, defrags, now),
                recovery,
                spaceRecoveries.defragmented(cluster));
    }

    /**
     * Status of a member whose Pod is ready and which etcd lists; learners answer it too. A member in its first seconds
     * is asked as soon as its container runs and etcd lists it as started: it may serve before the kubelet's next probe.
     */
    private static Optional<EndpointStatus> endpointStatus(
            EtcdMember m, Pod pod, EtcdAdmin etcd, Membership membership, Instant now) {
        Optional<Member> entry = membership.entryOf(m.getMetadata().getName(), Names.peerUrl(m));
        boolean ask = pod != null
                && entry.isPresent()
                && (MemberPodStatus.ready(pod)
                        || (MemberObservations.starting(m, now)
                                && entry.get().started()
                                && MemberPodStatus.running(pod)));
        if (!ask) {
            return Optional.empty();
        }
        try {
            return Optional.of(etcd.status(Names.clientUrl(m)));
        } catch (EtcdException e) {
            LOG.atDebug()
                    .addKeyValue("member", m.getMetadata().getName())
                    .addKeyValue("error", e.getMessage())
                    .log("endpoint status not observed");
            return Optional.empty();
        }
    }

    /** Asked only while spec.auth wants it and status has not latched it: a converged cluster is never probed again. */
    private static Optional<Boolean> probeAuth(EtcdCluster cluster, EtcdAdmin etcd, boolean formed) {
        ObservedCluster.AuthView view = authView(cluster, Optional.empty());
        if (!view.wanted() || view.latched() || !formed) {
            return Optional.empty();
        }
        try {
            return Optional.of(etcd.authEnabled());
        } catch (EtcdException e) {
            return Optional.empty();
        }
    }

    private static ObservedCluster.AuthView authView(EtcdCluster cluster, Optional<Boolean> etcdRequiresAuth) {
        return authView(cluster, etcdRequiresAuth, ObservedCluster.RootPassword.IN_STEP);
    }

    private static ObservedCluster.AuthView authView(
            EtcdCluster cluster, Optional<Boolean> etcdRequiresAuth, ObservedCluster.RootPassword password) {
        var auth = cluster.getSpec().getAuth();
        boolean wanted = auth != null && Boolean.TRUE.equals(auth.getEnabled());
        boolean latched = Boolean.TRUE.equals(cluster.getStatus().getAuthEnabled());
        return new ObservedCluster.AuthView(wanted, latched, etcdRequiresAuth, password);
    }

    /** The user's "restart now" (see InstantAnnotation). */
    static Optional<Instant> restartAt(EtcdCluster cluster) {
        return InstantAnnotation.read(cluster, EtcdOperatorApi.ANNOTATION_RESTART_AT);
    }

    static Reason reasonOf(RuntimeException e, EtcdCluster cluster) {
        boolean authWanted = cluster.getSpec().getAuth() != null
                && Boolean.TRUE.equals(cluster.getSpec().getAuth().getEnabled());
        if (e instanceof EtcdException.AuthRequired && !authWanted) {
            return Reason.AUTH_REQUIRED_NOT_CONFIGURED;
        }
        if (e instanceof EtcdException.AuthRejected) {
            return Reason.AUTH_CREDENTIALS_REJECTED;
        }
        return Reason.CLUSTER_UNREACHABLE;
    }
}
