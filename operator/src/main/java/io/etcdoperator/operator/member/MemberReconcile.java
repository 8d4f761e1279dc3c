package io.etcdoperator.operator.member;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.operator.cluster.EtcdDialer;
import io.etcdoperator.operator.cluster.TlsSecretLookup;
import io.etcdoperator.operator.config.OperatorConfig;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.planner.MemberPlanner;
import io.etcdoperator.operator.planner.MemberRemoval;
import io.etcdoperator.operator.planner.MemberRemoval.RemovalStep;
import io.etcdoperator.operator.planner.MemberStep;
import io.etcdoperator.operator.planner.MemberView;
import io.etcdoperator.operator.reads.KubeReads;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.AgentImage;
import io.etcdoperator.operator.resources.MemberPods;
import io.etcdoperator.operator.resources.MemberPvcs;
import io.etcdoperator.operator.writes.MergePatch;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
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

    /** The result of the finalizer: done (finalizer may go) or try again later. */
    public record Cleanup(boolean done, String detail) {}

    private final KubernetesClient client;
    private final KubeReads apiServer;
    private final EtcdDialer dialer;
    private final EventRecorder events;
    private final OperatorConfig config;
    private final Optional<AgentImage> agent;
    private final MemberObserver observer;
    private final MemberReport report;

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
        this.agent = agent;
        this.observer = new MemberObserver(apiServer, dialer, agent);
        this.report = new MemberReport(client, events, clock);
    }

    public Optional<Duration> reconcile(EtcdMember member) {
        return reconcile(member, apiServer);
    }

    /** One pass with the Pod and the claim from {@code reads} (the caches in a CachePass): observe, plan, act, report. */
    public Optional<Duration> reconcile(EtcdMember member, KubeReads reads) {
        Pod pod = MemberObserver.pending(member) ? null : MemberObserver.pod(member, reads);
        MemberView view = observer.observe(member, pod, reads);
        MemberStep step = MemberPlanner.next(view);
        return switch (step) {
            case MemberStep.AwaitInitialCluster s -> Optional.empty(); // its write starts the next pass
            case MemberStep.Park s -> park(member, s.deletePod() ? pod : null);
            case MemberStep.ReportLost s -> report.report(member, null, Optional.of(MemberReport.LOST));
            case MemberStep.RecreateFailedPod s -> {
                events.warning(member, Reason.POD_FAILED, "Pod failed (" + s.podReason() + "); recreating it");
                client.resource(pod).delete();
                yield report.report(member, null, Optional.empty());
            }
            case MemberStep.CreateVolume s -> {
                createVolume(member);
                yield report.report(member, pod, Optional.empty(), observer.identity(member, pod));
            }
            case MemberStep.Blocked s -> report.report(member, s.withPod() ? pod : null, Optional.of(s.detail()));
            case MemberStep.RefuseRestore s -> report.refuseRestore(member);
            case MemberStep.CreatePod s -> report.report(member, createPod(member, s), Optional.empty());
            case MemberStep.PatchLabels s -> {
                patchLabels(member, pod, s);
                yield report.report(member, pod, Optional.empty(), observer.identity(member, pod));
            }
            case MemberStep.Report s -> report.report(member, pod, Optional.empty(), observer.identity(member, pod));
        };
    }

    private Pod createPod(EtcdMember member, MemberStep.CreatePod s) {
        if (s.createVolume()) {
            createVolume(member);
        }
        Pod pod = client.pods()
                .inNamespace(member.getMetadata().getNamespace())
                .resource(MemberPods.build(
                        TlsSecretLookup.stamped(dialer.secrets(), member, new HashMap<>()),
                        config.etcdImage(member.getSpec().getVersion()),
                        s.existing(),
                        agent))
                .create();
        LOG.atInfo()
                .addKeyValue("member", member.getMetadata().getName())
                .addKeyValue("restore", s.restores())
                .log("created member pod");
        if (s.restores()) {
            events.normal(
                    member,
                    Reason.RESTORING_SNAPSHOT,
                    "seed Pod created; its init container restores "
                            + RestoreProgress.source(member.getSpec().getRestore()) + " before etcd first starts");
        }
        return pod;
    }

    /** {@code pod}: the Pod to delete, if one runs. */
    private Optional<Duration> park(EtcdMember member, Pod pod) {
        if (pod != null) {
            client.resource(pod).delete();
        }
        return report.paused(member);
    }

    private void createVolume(EtcdMember member) {
        client.persistentVolumeClaims()
                .inNamespace(member.getMetadata().getNamespace())
                .resource(MemberPvcs.build(member))
                .create();
    }

    private void patchLabels(EtcdMember member, Pod pod, MemberStep.PatchLabels s) {
        if (!s.restored().isEmpty()) {
            events.warning(
                    member,
                    Reason.LABELS_RESTORED,
                    "Pod " + pod.getMetadata().getName() + " had lost the operator's labels " + s.restored()
                            + "; restored (the Pod is this member's by owner reference)");
        }
        MergePatch.of(
                client,
                Pod::new,
                pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(),
                Map.of("metadata", Map.of("labels", s.patch())));
    }

    /**
     * The finalizer: MemberRemove before the Pod and PVC go. Skipped when the whole cluster is being deleted, so a
     * cluster delete never waits on a quorum that is disappearing with it; not while an adopted etcd's own members
     * still vote: they outlive the cluster, and must keep a quorum of the voters left.
     */
    public Cleanup cleanup(EtcdMember member) {
        MemberObserver.Removal read = observer.removal(member);
        RemovalStep step = MemberRemoval.next(read.facts());
        if (step instanceof RemovalStep.ReadMembers) {
            read = observer.peers(read);
            step = MemberRemoval.next(read.facts());
        }
        if (step instanceof RemovalStep.AskEtcd) {
            try (EtcdAdmin etcd = dialer.open(read.cluster(), read.endpoints())) {
                step = MemberRemoval.next(read.facts(), new MemberRemoval.EtcdAnswer.Listed(etcd.members()));
                if (step instanceof RemovalStep.RemoveFromEtcd remove) {
                    return remove(etcd, read.cluster(), member, remove.id());
                }
            } catch (EtcdException.MemberNotFound e) {
                return new Cleanup(true, "already removed");
            } catch (EtcdException | EtcdDialer.MissingMaterialException e) {
                LOG.atWarn()
                        .addKeyValue("member", member.getMetadata().getName())
                        .addKeyValue("error", e.getMessage())
                        .log("MemberRemove failed; will retry");
                step = MemberRemoval.next(read.facts(), new MemberRemoval.EtcdAnswer.Unreachable(e.getMessage()));
            }
        }
        return switch (step) {
            case RemovalStep.Release r -> new Cleanup(true, r.detail());
            case RemovalStep.Hold h -> new Cleanup(false, h.detail());
            case RemovalStep.ReadMembers r -> throw new IllegalStateException("read the members already");
            case RemovalStep.AskEtcd a -> throw new IllegalStateException("asked etcd already");
            case RemovalStep.RemoveFromEtcd r -> throw new IllegalStateException("removed already");
        };
    }

    private Cleanup remove(EtcdAdmin etcd, EtcdCluster cluster, EtcdMember member, MemberId id) {
        etcd.remove(id);
        events.normal(
                cluster,
                Reason.MEMBER_REMOVED,
                "removed member " + member.getMetadata().getName() + " (" + id + ") from etcd");
        LOG.atInfo()
                .addKeyValue("member", member.getMetadata().getName())
                .addKeyValue("memberID", id)
                .log("removed member from etcd");
        return new Cleanup(true, "removed");
    }
}
