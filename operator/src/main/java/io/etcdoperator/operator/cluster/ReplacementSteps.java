package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.cluster.StepExecutor.Outcome;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.planner.MemberMaterial;
import io.etcdoperator.operator.planner.Step;
import io.etcdoperator.operator.reason.Reason;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writes that replace a member: a broken, lost, stuck, unrunnable or node-lost one is deleted after its volume is
 * released (kept), a roll's surge member is created and the member it replaces retired, and what such a member left
 * behind (a released volume past its time, a Pod stuck on a lost node) is cleared.
 */
final class ReplacementSteps {

    private static final Logger LOG = LoggerFactory.getLogger(ReplacementSteps.class);

    private final KubernetesClient client;
    private final EventRecorder events;
    private final RetainedVolumes volumes;
    private final LeaseCheck lease;
    private final EtcdMemberWrites members;

    ReplacementSteps(
            KubernetesClient client,
            EventRecorder events,
            RetainedVolumes volumes,
            LeaseCheck lease,
            EtcdMemberWrites members) {
        this.client = client;
        this.events = events;
        this.volumes = volumes;
        this.lease = lease;
        this.members = members;
    }

    Outcome broken(EtcdCluster cluster, Step.ReplaceBrokenMember s, ClusterObserver.Observation observation) {
        return replaceMember(
                cluster,
                s.member(),
                s.reason(),
                "member " + s.member()
                        + (s.why().dataLost()
                                ? " lost its data"
                                : s.why().removed() ? " was removed from etcd" : " crash-loops")
                        + " (" + s.why().restarts() + " restarts, last "
                        + s.why().lastExit() + "); deleting it: its finalizer "
                        + "removes the old member id from etcd if listed and a new member joins as a learner with a fresh "
                        + "directory; its volume is kept",
                observation);
    }

    Outcome stuckLearner(EtcdCluster cluster, Step.RemoveStuckLearner s) {
        return replaceMember(
                cluster,
                s.member(),
                s.reason(),
                "learner " + s.member()
                        + " did not come up within 10 minutes; deleting it (its finalizer removes the learner from etcd) so a new "
                        + "member can join (a learner holds only a copy: its volume goes with it)",
                Optional.empty());
    }

    Outcome surge(EtcdCluster cluster, Step.ReplaceMember s, Optional<MemberMaterial> material) {
        EtcdMember m = members.create(cluster, false, material);
        return changed(
                cluster,
                s.reason(),
                "created member " + name(m) + " to replace " + s.replaces() + " ("
                        + s.why().reason() + "); it joins as a learner before " + s.replaces() + " is removed");
    }

    Outcome retire(EtcdCluster cluster, Step.RetireMember s) {
        members.delete(cluster, s.member());
        return changed(
                cluster,
                s.reason(),
                "deleting replaced member " + s.member() + " (" + s.why().reason()
                        + "); its finalizer removes it from etcd");
    }

    Outcome lost(EtcdCluster cluster, Step.RemoveLostMember s, ClusterObserver.Observation observation) {
        return replaceMember(
                cluster,
                s.member(),
                s.reason(),
                "memory-backed member " + s.member()
                        + " lost its Pod and with it its data; deleting it so a new member replaces it",
                observation);
    }

    Outcome nodeLost(EtcdCluster cluster, Step.ReplaceNodeLostMember s, ClusterObserver.Observation observation) {
        return replaceMember(
                cluster,
                s.member(),
                s.reason(),
                "member " + s.member()
                        + ": node " + s.node() + " not Ready for "
                        + s.notReadyFor().toSeconds() + " s; deleting it: its finalizer "
                        + "removes it from etcd and a new member joins as a learner on a Ready node; its volume is kept",
                observation);
    }

    Outcome deleteVolume(EtcdCluster cluster, Step.DeleteRetainedVolume s) {
        client.persistentVolumeClaims()
                .inNamespace(ns(cluster))
                .withName(s.pvc())
                .delete();
        return changed(
                cluster,
                s.reason(),
                "deleted released volume " + s.pvc() + ": it was kept "
                        + cluster.getSpec().getRetainedVolumeSeconds() + " s (spec.retainedVolumeSeconds)");
    }

    Outcome unrunnable(EtcdCluster cluster, Step.ReplaceUnrunnableMember s, ClusterObserver.Observation observation) {
        return replaceMember(
                cluster,
                s.member(),
                s.reason(),
                "voter " + s.member()
                        + "'s Pod could not be scheduled for "
                        + s.pendingFor().toSeconds() + " s (" + s.why() + "); deleting it: "
                        + "its finalizer removes it from etcd and a new member joins as a learner; its volume is kept",
                observation);
    }

    Outcome forceDeletePod(EtcdCluster cluster, Step.ForceDeletePod s) {
        client.pods()
                .inNamespace(ns(cluster))
                .withName(s.pod())
                .withGracePeriod(0)
                .delete();
        events.warning(
                cluster,
                s.reason(),
                "Pod " + s.pod() + " of a removed member stayed on node " + s.node()
                        + ", which is not Ready; deleted it with grace period 0 (its member id is out of etcd)");
        return Outcome.of(s.reason(), "force-deleted Pod " + s.pod() + " on node " + s.node(), StepExecutor.SOON);
    }

    /**
     * Releases a broken or lost member's volume (kept, see {@link RetainedVolumes}), then deletes its EtcdMember (its
     * finalizer runs MemberRemove) and says why, as a warning. A crash between the two writes repeats the release.
     */
    private Outcome replaceMember(
            EtcdCluster cluster,
            String member,
            Reason reason,
            String message,
            ClusterObserver.Observation observation) {
        return replaceMember(cluster, member, reason, message, observation.member(member));
    }

    /** {@code keep}: the EtcdMember whose volume is released first; empty for a learner, whose data is only a copy. */
    private Outcome replaceMember(
            EtcdCluster cluster, String member, Reason reason, String message, Optional<EtcdMember> keep) {
        volumes.release(cluster, keep);
        lease.ensureHeld();
        members.delete(cluster, member);
        events.warning(cluster, reason, message);
        LOG.atWarn()
                .addKeyValue("member", member)
                .addKeyValue("reason", reason.reason())
                .log(message);
        return Outcome.of(reason, message, StepExecutor.SOON);
    }

    private Outcome changed(EtcdCluster cluster, Reason reason, String message) {
        return Outcome.reported(events, cluster, reason, message);
    }

    private static String ns(EtcdCluster cluster) {
        return cluster.getMetadata().getNamespace();
    }

    private static String name(EtcdMember m) {
        return m.getMetadata().getName();
    }
}
