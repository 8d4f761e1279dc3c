package io.etcdoperator.operator.member;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberStatus;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.informer.ObjectCopies;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.Labels;
import io.etcdoperator.operator.resources.MemberPodStatus;
import io.etcdoperator.operator.resources.MemberPods;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The member's status: where its Pod and claim are, Ready with its reason (the member id from etcd's list first, as
 * {@link MemberObserver#identity} read it), the version it runs against its spec's; written only when it changed.
 */
final class MemberReport {

    private static final Logger LOG = LoggerFactory.getLogger(MemberReport.class);
    static final String LOST = "memory-backed member lost its Pod and data; waiting for the cluster to replace it";
    static final String VERSION_DRIFTED = Reason.VERSION_DRIFTED.reason();

    private final KubernetesClient client;
    private final EventRecorder events;
    private final Clock clock;

    MemberReport(KubernetesClient client, EventRecorder events, Clock clock) {
        this.client = client;
        this.events = events;
        this.clock = clock;
    }

    /** spec.dormant: no Pod, the claim kept. */
    Optional<Duration> paused(EtcdMember member) {
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
        return Optional.of(MemberReconcile.STEADY);
    }

    Optional<Duration> report(EtcdMember member, Pod pod, Optional<String> blocked) {
        return report(member, pod, blocked, Optional.empty());
    }

    /** {@code identity}: what etcd said of a ready Pod's member with no id recorded yet ({@link MemberObserver}). */
    Optional<Duration> report(EtcdMember member, Pod pod, Optional<String> blocked, Optional<MemberIdentity> identity) {
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
        } else if (pod == null || !MemberPodStatus.ready(pod)) {
            ready = Reason.POD_NOT_READY.reason();
            message = "pod phase: "
                    + (pod == null || pod.getStatus() == null
                            ? "Pending"
                            : pod.getStatus().getPhase());
        } else if (status.getMemberID() == null) {
            Optional<String> notYet = identify(status, identity);
            ready = notYet.isEmpty() ? Reason.POD_READY.reason() : Reason.DISCOVERING_MEMBER_ID.reason();
            message = notYet.map(e -> "waiting for memberID: " + e).orElse("etcd member is ready");
            isReady = notYet.isEmpty();
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
        return Optional.of(isReady ? MemberReconcile.STEADY : MemberReconcile.SOON);
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

    /** Records the id (and the version) etcd gave; else why the id is not known yet. */
    private static Optional<String> identify(EtcdMemberStatus status, Optional<MemberIdentity> identity) {
        return switch (identity.orElse(new MemberIdentity.NotYet("not asked"))) {
            case MemberIdentity.Found found -> {
                status.setMemberID(found.memberId());
                found.version().ifPresent(status::setVersion);
                yield Optional.empty();
            }
            case MemberIdentity.NotYet notYet -> Optional.of(notYet.why());
        };
    }

    Optional<Duration> refuseRestore(EtcdMember member) {
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
        return Optional.of(MemberReconcile.STEADY);
    }

    private EtcdMemberStatus copy(EtcdMemberStatus status) {
        return status == null ? new EtcdMemberStatus() : ObjectCopies.of(status);
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
