package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.operator.cluster.StepExecutor.Outcome;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.planner.EtcdView;
import io.etcdoperator.operator.planner.MemberMaterial;
import io.etcdoperator.operator.planner.Step;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.Names;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps that change etcd's membership or the EtcdMembers that stand for it: create, add as learner, promote,
 * remove. Every write after a step's first checks the leader Lease (docs/operations.md, "Two operators").
 */
final class MembershipSteps {

    private static final Logger LOG = LoggerFactory.getLogger(MembershipSteps.class);

    private final KubernetesClient client;
    private final EtcdMemberWrites members;
    private final EventRecorder events;
    private final LeaseCheck lease;

    MembershipSteps(KubernetesClient client, EtcdMemberWrites members, EventRecorder events, LeaseCheck lease) {
        this.client = client;
        this.members = members;
        this.events = events;
        this.lease = lease;
    }

    Outcome create(
            EtcdCluster cluster,
            Step.CreateMember s,
            ClusterObserver.Observation observation,
            Optional<MemberMaterial> material) {
        EtcdMember m = members.create(cluster, false, material);
        Outcome created = Outcome.reported(events, cluster, s.reason(), "created member " + name(m) + " for scale-up");
        if (s.addAtOnce().isEmpty() || observation.etcd().isEmpty()) {
            return created;
        }
        lease.ensureHeld(); // the learner add is a membership change: only the Lease's holder makes it
        String initialCluster = s.addAtOnce().get().with(name(m), Names.peerUrl(m));
        return addAtOnce(
                        cluster,
                        new Step.AddLearner(name(m), Names.peerUrl(m), initialCluster),
                        observation.etcd().get())
                .orElse(created);
    }

    /**
     * The new member's MemberAddAsLearner in the step that created it, as the planner's next pass would do (etcd has
     * no learner in flight); a pass sooner. Refused or failed, the member stays pending and the planner adds it.
     */
    private Optional<Outcome> addAtOnce(EtcdCluster cluster, Step.AddLearner add, EtcdAdmin etcd) {
        try {
            Outcome added = addLearner(cluster, add, etcd);
            return added.reason() == Reason.LEARNER_ADDED ? Optional.of(added) : Optional.empty();
        } catch (EtcdException e) {
            return Optional.empty();
        }
    }

    Outcome addLearner(EtcdCluster cluster, Step.AddLearner s, EtcdAdmin etcd) {
        try {
            var after = etcd.addLearner(s.peerUrl());
            String id = after.byPeerUrl(s.peerUrl()).map(m -> m.id().hex()).orElse("?");
            lease.ensureHeld();
            // the same step lets it start: should this write fail, the planner sees a learner without a Pod and writes
            // it
            members.writeInitialCluster(cluster, s.member(), s.initialCluster());
            if (!"?".equals(id)) {
                members.recordLearner(cluster, s.member(), id);
            }
            return Outcome.reported(
                    events,
                    cluster,
                    s.reason(),
                    "added member " + s.member() + " as learner " + id + "; it may start: initial cluster "
                            + s.initialCluster());
        } catch (EtcdException.MembershipRefused | EtcdException.Unavailable e) {
            return Outcome.of(
                    Reason.LEARNER_CATCHING_UP, "learner add refused: " + e.getMessage(), StepExecutor.ETCD_GATE);
        }
    }

    /** Straight to the leader the planner named: only it decides, and a follower may not forward it well. */
    Outcome promote(EtcdCluster cluster, Step.PromoteLearner s, ClusterObserver.Observation observation) {
        EtcdAdmin etcd = observation.etcd().orElseThrow();
        Optional<URI> leader = s.leader().flatMap(observation::member).map(Names::clientUrl);
        try {
            if (leader.isPresent()) {
                etcd.promote(s.id(), leader.get());
            } else {
                etcd.promote(s.id());
            }
        } catch (EtcdException.LearnerNotReady e) {
            LOG.atInfo().addKeyValue("member", s.member()).log("learner not yet promotable; will retry");
            return Outcome.of(
                    Reason.LEARNER_CATCHING_UP,
                    s.member() + " is not yet in sync with the leader",
                    StepExecutor.ETCD_GATE);
        }
        lease.ensureHeld();
        members.markVoter(cluster, s.member());
        return Outcome.reported(
                events, cluster, s.reason(), "promoted learner " + s.member() + " (" + s.id() + ") to voter");
    }

    Outcome remove(EtcdCluster cluster, Step.RemoveMember s, ClusterObserver.Observation observation) {
        Optional<String> unstarted = unstartedLearner(cluster, s.member(), observation);
        members.delete(cluster, s.member());
        return Outcome.reported(
                events,
                cluster,
                s.reason(),
                unstarted
                        .map(why -> "deleting learner " + s.member()
                                + ", which never started (" + why
                                + "), for scale-down: the scale-up was reverted; its finalizer removes it "
                                + "from etcd")
                        .orElse("deleting member " + s.member()
                                + " for scale-down; its finalizer removes it from etcd"));
    }

    Outcome removeOrphan(EtcdCluster cluster, Step.RemoveOrphan s, EtcdAdmin etcd) {
        try {
            etcd.remove(s.id());
        } catch (EtcdException.MemberNotFound e) {
            // already gone: the goal holds
        }
        events.warning(
                cluster, s.reason(), "removed etcd member " + s.id() + " (" + s.name() + ") that no EtcdMember owns");
        LOG.atWarn()
                .addKeyValue("memberID", s.id())
                .addKeyValue("name", s.name())
                .log("removed orphan etcd member");
        return Outcome.of(s.reason(), "removed orphan member " + s.id(), StepExecutor.SOON);
    }

    /**
     * For the event of a scale-down that takes a learner etcd lists as unstarted: what its Pod says (say, Pending:
     * 0/3 nodes are available), so the reason the learner never came up is not lost with it.
     */
    private Optional<String> unstartedLearner(
            EtcdCluster cluster, String member, ClusterObserver.Observation observation) {
        if (!(observation.cluster().etcd() instanceof EtcdView.Reached reached)) {
            return Optional.empty();
        }
        Optional<Member> entry = observation
                .cluster()
                .byName(member)
                .flatMap(m -> reached.membership().entryOf(m.name(), m.peerUrl()));
        if (entry.isEmpty() || !entry.get().learner() || entry.get().started()) {
            return Optional.empty();
        }
        Pod pod = client.pods().inNamespace(ns(cluster)).withName(member).get();
        if (pod == null || pod.getStatus() == null) {
            return Optional.of("no Pod");
        }
        String scheduling = pod.getStatus().getConditions() == null
                ? ""
                : pod.getStatus().getConditions().stream()
                        .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()))
                        .map(c -> ": " + c.getReason() + ", " + c.getMessage())
                        .findFirst()
                        .orElse("");
        return Optional.of("Pod " + pod.getStatus().getPhase() + scheduling);
    }

    private static String ns(EtcdCluster cluster) {
        return cluster.getMetadata().getNamespace();
    }

    private static String name(EtcdMember m) {
        return m.getMetadata().getName();
    }
}
