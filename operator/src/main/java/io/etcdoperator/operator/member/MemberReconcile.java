package io.etcdoperator.operator.member;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberStatus;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.cluster.AllLostRecourse;
import io.etcdoperator.operator.cluster.EtcdDialer;
import io.etcdoperator.operator.cluster.TlsSecretLookup;
import io.etcdoperator.operator.config.OperatorConfig;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.reads.KubeReads;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.AgentContainers;
import io.etcdoperator.operator.resources.AgentImage;
import io.etcdoperator.operator.resources.Labels;
import io.etcdoperator.operator.resources.MemberPods;
import io.etcdoperator.operator.resources.MemberPvcs;
import io.etcdoperator.operator.resources.MemberTlsView;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.resources.Owners;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One pass over an EtcdMember: its PVC, its Pod, its status; and MemberRemove when it is deleted. */
public class MemberReconcile {

    private static final Logger LOG = LoggerFactory.getLogger(MemberReconcile.class);
    // a ready member changes only through events (its Pod, PVC, EtcdMember); the look-again is a safety net, and at
    // 30 s it was 3000 Pod and PVC GETs a minute with 1000 idle clusters (docs/benchmarks.md)
    static final Duration STEADY = Duration.ofMinutes(5);
    static final Duration SOON = Duration.ofSeconds(5);
    static final String LOST = "memory-backed member lost its Pod and data; waiting for the cluster to replace it";
    static final String VERSION_DRIFTED = Reason.VERSION_DRIFTED.reason();

    /** The result of the finalizer: done (finalizer may go) or try again later. */
    public record Cleanup(boolean done, String detail) {}

    private final KubernetesClient client;
    private final KubeReads apiServer;
    private final EtcdDialer dialer;
    private final EventRecorder events;
    private final OperatorConfig config;
    private final Clock clock;
    private final Optional<AgentImage> agent;

    public MemberReconcile(
            KubernetesClient client, EtcdDialer dialer, EventRecorder events, OperatorConfig config, Clock clock) {
        this(client, dialer, events, config, clock, Optional.empty());
    }

    /** @param agent the operator image as restore agent; without it a restoring seed waits with a named reason */
    public MemberReconcile(
            KubernetesClient client,
            EtcdDialer dialer,
            EventRecorder events,
            OperatorConfig config,
            Clock clock,
            Optional<AgentImage> agent) {
        this.client = client;
        this.apiServer = KubeReads.of(client);
        this.dialer = dialer;
        this.events = events;
        this.config = config;
        this.clock = clock;
        this.agent = agent;
    }

    public Optional<Duration> reconcile(EtcdMember member) {
        return reconcile(member, apiServer);
    }

    /** One pass with the Pod and the claim from {@code reads} (the caches in a CachePass). */
    public Optional<Duration> reconcile(EtcdMember member, KubeReads reads) {
        String initial = member.getSpec().getInitialCluster();
        if (initial == null || initial.isEmpty()) {
            return Optional
                    .empty(); // pending: the cluster controller writes the initial cluster, which triggers us again
        }
        if (Boolean.TRUE.equals(member.getSpec().getDormant())) {
            return park(member, reads);
        }
        Pod pod = pod(member, reads);
        if (MemberPods.memoryBacked(member.getSpec()) && MemberPods.podLost(member, pod)) {
            // its data went with the Pod; the cluster planner removes and replaces it, a new Pod must never start
            return report(member, null, Optional.of(LOST));
        }
        if (!MemberPods.memoryBacked(member.getSpec()) && MemberPods.failed(pod)) {
            // evicted or failed for good: a PVC member gets a new Pod on the same volume, as a StatefulSet would
            events.warning(
                    member, Reason.POD_FAILED, "Pod failed (" + pod.getStatus().getReason() + "); recreating it");
            client.resource(pod).delete();
            return report(member, null, Optional.empty());
        }
        if (!MemberPods.memoryBacked(member.getSpec())) {
            Optional<String> problem = ensurePvc(member, reads);
            if (problem.isPresent()) {
                return report(member, pod, Optional.of(problem.get()));
            }
        }
        if (pod == null) {
            Optional<String> blocked = missingSecret(member);
            if (blocked.isPresent()) {
                return report(member, null, blocked);
            }
            boolean existing = existingCluster(member);
            boolean restores = AgentContainers.restores(member, existing);
            if (restores && agent.isEmpty()) {
                return refuseRestore(member);
            }
            pod = client.pods()
                    .inNamespace(member.getMetadata().getNamespace())
                    .resource(MemberPods.build(
                            TlsSecretLookup.stamped(dialer.secrets(), member, new HashMap<>()),
                            config.etcdImage(member.getSpec().getVersion()),
                            existing,
                            agent))
                    .create();
            LOG.atInfo()
                    .addKeyValue("member", member.getMetadata().getName())
                    .addKeyValue("restore", restores)
                    .log("created member pod");
            if (restores) {
                events.normal(
                        member,
                        Reason.RESTORING_SNAPSHOT,
                        "seed Pod created; its init container restores "
                                + RestoreProgress.source(member.getSpec().getRestore()) + " before etcd first starts");
            }
        } else if (!Owners.controlledBy(pod, member.getMetadata().getUid())) {
            return report(
                    member, null, Optional.of("Pod " + pod.getMetadata().getName() + " belongs to another owner"));
        } else {
            syncRoleLabel(member, pod);
        }
        return report(member, pod, Optional.empty());
    }

    private Optional<Duration> refuseRestore(EtcdMember member) {
        String message = Reason.RESTORE_NEEDS_OPERATOR_IMAGE.description();
        boolean already = member.getStatus() != null
                && Conditions.find(member.getStatus().getConditions(), Conditions.READY)
                        .map(c -> Reason.RESTORE_NEEDS_OPERATOR_IMAGE.reason().equals(c.getReason()))
                        .orElse(false);
        if (!already) {
            events.warning(member, Reason.RESTORE_NEEDS_OPERATOR_IMAGE, message);
            LOG.atWarn()
                    .addKeyValue("member", member.getMetadata().getName())
                    .addKeyValue("reason", Reason.RESTORE_NEEDS_OPERATOR_IMAGE.reason())
                    .log("seed pod not created");
        }
        EtcdMemberStatus status = copy(member.getStatus());
        status.setConditions(Conditions.set(
                status.getConditions(),
                Conditions.READY,
                false,
                Reason.RESTORE_NEEDS_OPERATOR_IMAGE.reason(),
                message,
                member.getMetadata().getGeneration(),
                clock.instant()));
        writeStatus(member, status);
        return Optional.of(STEADY);
    }

    /** A seed forms a new cluster only the very first time; a seed coming back with an empty disk must not. */
    boolean existingCluster(EtcdMember member) {
        boolean seed = Boolean.TRUE.equals(member.getSpec().getBootstrap());
        boolean knownId = member.getStatus() != null && member.getStatus().getMemberID() != null;
        if (!seed || knownId) {
            return true;
        }
        EtcdCluster cluster = cluster(member);
        boolean formed = cluster != null
                && cluster.getStatus() != null
                && cluster.getStatus().getClusterID() != null;
        return formed;
    }

    private Optional<Duration> park(EtcdMember member, KubeReads reads) {
        Pod pod = pod(member, reads);
        if (pod != null && pod.getMetadata().getDeletionTimestamp() == null) {
            client.resource(pod).delete();
        }
        EtcdMemberStatus status = copy(member.getStatus());
        status.setPodName(null);
        status.setPodUID(null);
        status.setConditions(Conditions.set(
                status.getConditions(),
                Conditions.READY,
                false,
                Reason.PAUSED.reason(),
                "member is paused (spec.dormant=true); Pod deleted, PVC kept",
                member.getMetadata().getGeneration(),
                clock.instant()));
        writeStatus(member, status);
        return Optional.of(STEADY);
    }

    private Optional<String> ensurePvc(EtcdMember member, KubeReads reads) {
        String name = Names.dataPvc(member.getMetadata().getName());
        var pvc = reads.volume(member.getMetadata().getNamespace(), name).orElse(null);
        if (pvc == null) {
            client.persistentVolumeClaims()
                    .inNamespace(member.getMetadata().getNamespace())
                    .resource(MemberPvcs.build(member))
                    .create();
            return Optional.empty();
        }
        if (!Owners.controlledBy(pvc, member.getMetadata().getUid())) {
            return Optional.of("PVC " + name + " is owned by another object; waiting for it to be garbage-collected");
        }
        return Optional.empty();
    }

    private Optional<String> missingSecret(EtcdMember member) {
        MemberTlsView tls = MemberTlsView.of(member);
        for (String secret : new String[] {tls.clientSecret(), tls.peerSecret()}) {
            if (secret != null
                    && dialer.secrets()
                            .get(member.getMetadata().getNamespace(), secret)
                            .isEmpty()) {
                return Optional.of("waiting for Secret " + secret);
            }
        }
        return Optional.empty();
    }

    /**
     * The role label follows etcd; the operator's own labels (cluster, member) come back when someone edits them away:
     * Services and the PDB select by them. The Pod stays the member's by owner reference whatever its labels say.
     */
    private void syncRoleLabel(EtcdMember member, Pod pod) {
        boolean voter = member.getStatus() != null
                && Boolean.TRUE.equals(member.getStatus().getIsVoter());
        Map<String, String> labels = pod.getMetadata().getLabels() == null
                ? Map.of()
                : pod.getMetadata().getLabels();
        boolean labelled = EtcdOperatorApi.ROLE_VOTER.equals(labels.get(EtcdOperatorApi.LABEL_ROLE));
        Map<String, Object> role = new LinkedHashMap<>();
        Labels.member(member.getSpec().getClusterName(), member.getMetadata().getName())
                .forEach((k, v) -> {
                    if (!v.equals(labels.get(k))) {
                        role.put(k, v);
                    }
                });
        if (voter == labelled && role.isEmpty()) {
            return;
        }
        if (!role.isEmpty()) {
            events.warning(
                    member,
                    Reason.LABELS_RESTORED,
                    "Pod " + pod.getMetadata().getName() + " had lost the " + "operator's labels " + role.keySet()
                            + "; restored (the Pod is this member's by owner reference)");
        }
        role.put(EtcdOperatorApi.LABEL_ROLE, voter ? EtcdOperatorApi.ROLE_VOTER : null);
        client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName())
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        client.getKubernetesSerialization().asJson(Map.of("metadata", Map.of("labels", role))));
    }

    private Optional<Duration> report(EtcdMember member, Pod pod, Optional<String> blocked) {
        EtcdMemberStatus status = copy(member.getStatus());
        String name = member.getMetadata().getName();
        status.setReplicas(1);
        status.setSelector(
                Labels.selectorString(member.getSpec().getClusterName()) + "," + Labels.COMPONENT + "=" + name);
        status.setPvcName(MemberPods.memoryBacked(member.getSpec()) ? null : Names.dataPvc(name));
        status.setObservedGeneration(member.getMetadata().getGeneration());
        if (pod != null) {
            status.setPodName(pod.getMetadata().getName());
            status.setPodUID(pod.getMetadata().getUid());
        } else if (blocked.filter(LOST::equals).isPresent()) {
            status.setPodName(null);
        }
        String ready;
        String message;
        boolean isReady = false;
        Optional<RestoreProgress> restoring = pod == null ? Optional.empty() : RestoreProgress.of(pod);
        if (blocked.filter(LOST::equals).isPresent()) {
            ready = Reason.MEMBER_LOST.reason();
            message = blocked.get();
        } else if (blocked.isPresent()) {
            ready = Reason.BLOCKED.reason();
            message = blocked.get();
        } else if (restoring.isPresent()) {
            RestoreProgress restore = restoring.get();
            ready = restore.reason();
            message = restore.message();
            if (restore.failed()) {
                warnOnce(member, restore);
            }
        } else if (pod == null || !MemberPods.ready(pod)) {
            ready = Reason.POD_NOT_READY.reason();
            message = "pod phase: "
                    + (pod == null || pod.getStatus() == null
                            ? "Pending"
                            : pod.getStatus().getPhase());
        } else if (status.getMemberID() == null) {
            Optional<String> discovered = discover(member, status);
            ready = discovered.isEmpty() ? Reason.POD_READY.reason() : Reason.DISCOVERING_MEMBER_ID.reason();
            message = discovered.map(e -> "waiting for memberID: " + e).orElse("etcd member is ready");
            isReady = discovered.isEmpty();
        } else {
            ready = Reason.POD_READY.reason();
            message = "etcd member is ready";
            isReady = true;
        }
        status.setConditions(Conditions.set(
                status.getConditions(),
                Conditions.READY,
                isReady,
                ready,
                message,
                member.getMetadata().getGeneration(),
                clock.instant()));
        versionDrift(member, status);
        writeStatus(member, status);
        return Optional.of(isReady ? STEADY : SOON);
    }

    /** Informational: what the member runs (the cluster pass records it) against what its spec asks for. */
    private void versionDrift(EtcdMember member, EtcdMemberStatus status) {
        String running = status.getVersion();
        String wanted = member.getSpec().getVersion();
        if (running == null || running.isEmpty() || wanted == null) {
            return;
        }
        boolean drifted = !running.equals(wanted);
        status.setConditions(Conditions.set(
                status.getConditions(),
                VERSION_DRIFTED,
                drifted,
                drifted ? Reason.VERSION_MISMATCH.reason() : Reason.VERSION_MATCHED.reason(),
                drifted ? "running etcd " + running + ", spec.version is " + wanted : "running etcd " + running,
                member.getMetadata().getGeneration(),
                clock.instant()));
    }

    private void warnOnce(EtcdMember member, RestoreProgress restore) {
        boolean already = member.getStatus() != null
                && Conditions.find(member.getStatus().getConditions(), Conditions.READY)
                        .map(c -> restore.reason().equals(c.getReason())
                                && restore.message().equals(c.getMessage()))
                        .orElse(false);
        if (!already) {
            events.warning(member, restore.reason(), restore.message());
            LOG.atWarn()
                    .addKeyValue("member", member.getMetadata().getName())
                    .addKeyValue("reason", restore.reason())
                    .addKeyValue("detail", restore.message())
                    .log("snapshot restore failed; the kubelet retries it");
        }
    }

    /** Finds this member's id in etcd's member list (by name, else by peer URL); also records the running version. */
    private Optional<String> discover(EtcdMember member, EtcdMemberStatus status) {
        EtcdCluster cluster = cluster(member);
        if (cluster == null) {
            return Optional.of("cluster not found");
        }
        List<URI> endpoints = voterEndpoints(member, cluster, false);
        if (endpoints.isEmpty()) {
            endpoints = List.of(Names.clientUrl(member));
        }
        try (EtcdAdmin etcd = dialer.open(cluster, endpoints)) {
            Membership membership = etcd.members();
            Optional<Member> self = membership.entryOf(member.getMetadata().getName(), Names.peerUrl(member));
            if (self.isEmpty()) {
                return Optional.of("not in etcd's member list yet");
            }
            status.setMemberID(self.get().id().hex());
            try {
                status.setVersion(etcd.status(Names.clientUrl(member)).version());
            } catch (EtcdException e) {
                LOG.atDebug()
                        .addKeyValue("member", member.getMetadata().getName())
                        .log("version not observed");
            }
            return Optional.empty();
        } catch (EtcdException | EtcdDialer.MissingMaterialException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** Running voters with a Pod, other than (optionally) this member; learners are never dialed. */
    List<URI> voterEndpoints(EtcdMember member, EtcdCluster cluster, boolean excludeSelf) {
        return client
                .resources(EtcdMember.class)
                .inNamespace(member.getMetadata().getNamespace())
                .withLabel(EtcdOperatorApi.LABEL_CLUSTER, cluster.getMetadata().getName())
                .list()
                .getItems()
                .stream()
                .filter(m -> !excludeSelf
                        || !m.getMetadata()
                                .getName()
                                .equals(member.getMetadata().getName()))
                .filter(m -> m.getMetadata().getDeletionTimestamp() == null
                        && !Boolean.TRUE.equals(m.getSpec().getDormant()))
                .filter(m -> m.getStatus() != null
                        && Boolean.TRUE.equals(m.getStatus().getIsVoter()))
                .filter(m -> m.getStatus().getPodName() != null)
                .map(Names::clientUrl)
                .toList();
    }

    /**
     * The finalizer: MemberRemove before the Pod and PVC go. Skipped when the whole cluster is being deleted, so a
     * cluster delete never waits on a quorum that is disappearing with it.
     */
    public Cleanup cleanup(EtcdMember member) {
        EtcdCluster cluster = cluster(member);
        if (cluster == null || cluster.getMetadata().getDeletionTimestamp() != null) {
            return new Cleanup(true, "cluster is being deleted; MemberRemove skipped");
        }
        if (AllLostRecourse.resetAsked(cluster)) { // no etcd left to remove this member from
            return new Cleanup(
                    true, "every member lost its data and the cluster is reset to empty; MemberRemove skipped");
        }
        List<URI> endpoints = voterEndpoints(member, cluster, true);
        if (endpoints.isEmpty()) {
            boolean others = client
                    .resources(EtcdMember.class)
                    .inNamespace(member.getMetadata().getNamespace())
                    .withLabel(
                            EtcdOperatorApi.LABEL_CLUSTER, cluster.getMetadata().getName())
                    .list()
                    .getItems()
                    .stream()
                    .anyMatch(m -> !m.getMetadata()
                            .getName()
                            .equals(member.getMetadata().getName()));
            return others
                    ? new Cleanup(false, "no reachable voter to remove this member through")
                    : new Cleanup(true, "last member; nothing to remove it from");
        }
        try (EtcdAdmin etcd = dialer.open(cluster, endpoints)) {
            Optional<MemberId> id = memberId(member, etcd);
            if (id.isEmpty()) {
                return new Cleanup(true, "not in etcd's member list");
            }
            etcd.remove(id.get());
            events.normal(
                    cluster,
                    Reason.MEMBER_REMOVED,
                    "removed member " + member.getMetadata().getName() + " (" + id.get() + ") from etcd");
            LOG.atInfo()
                    .addKeyValue("member", member.getMetadata().getName())
                    .addKeyValue("memberID", id.get())
                    .log("removed member from etcd");
            return new Cleanup(true, "removed");
        } catch (EtcdException.MemberNotFound e) {
            return new Cleanup(true, "already removed");
        } catch (EtcdException | EtcdDialer.MissingMaterialException e) {
            LOG.atWarn()
                    .addKeyValue("member", member.getMetadata().getName())
                    .addKeyValue("error", e.getMessage())
                    .log("MemberRemove failed; will retry");
            return new Cleanup(false, e.getMessage());
        }
    }

    private static Optional<MemberId> memberId(EtcdMember member, EtcdAdmin etcd) {
        Membership membership = etcd.members();
        String recorded = member.getStatus() == null ? null : member.getStatus().getMemberID();
        if (recorded != null && !recorded.isBlank()) {
            return membership.byId(MemberId.parse(recorded)).map(Member::id);
        }
        return membership
                .entryOf(member.getMetadata().getName(), Names.peerUrl(member))
                .map(Member::id);
    }

    private EtcdCluster cluster(EtcdMember member) {
        return client.resources(EtcdCluster.class)
                .inNamespace(member.getMetadata().getNamespace())
                .withName(member.getSpec().getClusterName())
                .get();
    }

    private static Pod pod(EtcdMember member, KubeReads reads) {
        return reads.pod(
                        member.getMetadata().getNamespace(),
                        member.getMetadata().getName())
                .orElse(null);
    }

    private EtcdMemberStatus copy(EtcdMemberStatus status) {
        return status == null
                ? new EtcdMemberStatus()
                : client.getKubernetesSerialization().clone(status);
    }

    /** Writes the whole status when it changed, with the resourceVersion read: a concurrent isVoter write makes it 409. */
    private void writeStatus(EtcdMember member, EtcdMemberStatus status) {
        EtcdMemberStatus before = member.getStatus() == null ? new EtcdMemberStatus() : member.getStatus();
        var json = client.getKubernetesSerialization();
        if (json.asJson(before).equals(json.asJson(status))) {
            return;
        }
        member.setStatus(status);
        client.resource(member).updateStatus();
    }
}
