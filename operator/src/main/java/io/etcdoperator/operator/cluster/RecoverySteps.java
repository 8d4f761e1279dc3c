package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.cluster.StepExecutor.Outcome;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.planner.QuorumLossSteps;
import io.etcdoperator.operator.reason.Reason;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writes of quorum recovery and of the reset after every member was lost. Each step may make several writes; the
 * Lease is read before each later one, and each step resumes when a crash cut it short (the planner sees where).
 */
final class RecoverySteps {

    private static final Logger LOG = LoggerFactory.getLogger(RecoverySteps.class);

    private final KubernetesClient client;
    private final EventRecorder events;
    private final Clock clock;
    private final RetainedVolumes volumes;
    private final LeaseCheck lease;

    RecoverySteps(
            KubernetesClient client, EventRecorder events, Clock clock, RetainedVolumes volumes, LeaseCheck lease) {
        this.client = client;
        this.events = events;
        this.clock = clock;
        this.volumes = volumes;
        this.lease = lease;
    }

    Outcome start(EtcdCluster cluster, QuorumLossSteps.StartQuorumRecovery s) {
        recordRecoverySource(cluster, s.survivor());
        return warn(
                cluster,
                s.reason(),
                s.survivor(),
                "quorum lost for good: " + s.lost() + " lost their data; "
                        + "restarting the cluster from " + s.survivor() + ", the only voter left (recorded as "
                        + EtcdOperatorApi.ANNOTATION_FORCE_NEW_CLUSTER_FROM + ")");
    }

    Outcome force(EtcdCluster cluster, QuorumLossSteps.ForceNewCluster s) {
        markForceNewCluster(cluster, s.member(), clock.instant().toString()); // when: a cut before the restart shows
        lease.ensureHeld();
        if (s.inPlace()) { // a new Pod would empty the tmpfs: etcd-guard restarts etcd in this one
            askGuard(cluster, s.member(), clock.instant().toString());
        } else {
            client.pods().inNamespace(ns(cluster)).withName(s.member()).delete();
        }
        return warn(
                cluster,
                s.reason(),
                s.member(),
                "quorum lost: restarting " + s.member() + " with "
                        + "--force-new-cluster as " + EtcdOperatorApi.ANNOTATION_FORCE_NEW_CLUSTER_FROM
                        + " asks; every other "
                        + "member will be discarded and join again as a learner");
    }

    Outcome discard(EtcdCluster cluster, QuorumLossSteps.DiscardMembers s, ClusterObserver.Observation observation) {
        releaseAndDelete(cluster, s.members(), observation);
        return warn(
                cluster,
                s.reason(),
                s.survivor(),
                "discarding members " + s.members() + " (dropped by the cluster "
                        + "restarted from " + s.survivor() + "); their volumes are released and kept ("
                        + RetainedVolumes.HOW_TO_FIND
                        + ") and new members join as learners");
    }

    Outcome end(EtcdCluster cluster, QuorumLossSteps.EndForceNewCluster s) {
        markForceNewCluster(cluster, s.member(), null);
        lease.ensureHeld();
        if (s.inPlace()) {
            askGuard(cluster, s.member(), null); // the guard applies each request once; this only tidies the Pod
        } else {
            client.pods().inNamespace(ns(cluster)).withName(s.member()).delete();
        }
        lease.ensureHeld();
        recordRecoverySource(cluster, null);
        return normal(
                cluster,
                s.reason(),
                "the cluster runs from " + s.member() + " alone; "
                        + (s.inPlace() ? "" : "restarting it without --force-new-cluster, ")
                        + "new members join as learners");
    }

    Outcome clear(EtcdCluster cluster, QuorumLossSteps.ClearRecoveryRequest s) {
        recordRecoverySource(cluster, null);
        return normal(
                cluster,
                s.reason(),
                "the cluster already runs from " + s.member() + " alone; "
                        + EtcdOperatorApi.ANNOTATION_FORCE_NEW_CLUSTER_FROM + " consumed");
    }

    Outcome releaseAll(
            EtcdCluster cluster, QuorumLossSteps.ReleaseAllMembers s, ClusterObserver.Observation observation) {
        releaseAndDelete(cluster, s.members(), observation);
        return warn(
                cluster,
                s.reason(),
                String.join(",", s.members()),
                "every member had lost its data; as "
                        + EtcdOperatorApi.ANNOTATION_RESET_EMPTY + " asks, deleting members " + s.members()
                        + " (volumes released "
                        + "and kept: " + RetainedVolumes.HOW_TO_FIND + ") before an empty cluster is bootstrapped");
    }

    Outcome forget(EtcdCluster cluster, QuorumLossSteps.ForgetCluster s) {
        String message = "etcd cluster " + s.lost() + " forgotten (its data was lost); bootstrapping an empty cluster "
                + "from a new seed";
        warn(cluster, s.reason(), s.lost().toString(), message);
        return new Outcome(s.reason(), message, StepExecutor.SOON, Optional.empty(), false, false, true);
    }

    /** Each member's volume is released before its EtcdMember goes (the delete would take it along). */
    private void releaseAndDelete(EtcdCluster cluster, List<String> members, ClusterObserver.Observation observation) {
        for (String m : members) {
            lease.ensureHeld();
            volumes.release(cluster, observation.member(m));
            lease.ensureHeld();
            client.resources(EtcdMember.class)
                    .inNamespace(ns(cluster))
                    .withName(m)
                    .delete();
        }
    }

    private Outcome warn(EtcdCluster cluster, Reason reason, String subject, String message) {
        events.warning(cluster, reason, message);
        LOG.atWarn()
                .addKeyValue("member", subject)
                .addKeyValue("reason", reason.reason())
                .log(message);
        return Outcome.of(reason, message, StepExecutor.SOON);
    }

    private Outcome normal(EtcdCluster cluster, Reason reason, String message) {
        return Outcome.reported(events, cluster, reason, message);
    }

    /** Sets (member) or removes (null) the cluster's force-new-cluster-from annotation, the member to restart from. */
    private void recordRecoverySource(EtcdCluster cluster, String member) {
        EtcdCluster patched = client.resources(EtcdCluster.class)
                .inNamespace(ns(cluster))
                .withName(cluster.getMetadata().getName())
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        annotation(EtcdOperatorApi.ANNOTATION_FORCE_NEW_CLUSTER_FROM, member));
        // this pass's status write follows: with the old resourceVersion it would get 409 and READY would lag a pass
        cluster.getMetadata().setResourceVersion(patched.getMetadata().getResourceVersion());
        cluster.getMetadata().setAnnotations(patched.getMetadata().getAnnotations());
    }

    /** Sets (a new token) or removes (null) the request etcd-guard reads from the memory member Pod's annotations. */
    private void askGuard(EtcdCluster cluster, String pod, String token) {
        client.pods()
                .inNamespace(ns(cluster))
                .withName(pod)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        annotation(EtcdOperatorApi.ANNOTATION_FORCE_NEW_CLUSTER, token));
    }

    /** Sets (value) or removes (null) the one-shot --force-new-cluster mark on an EtcdMember. */
    private void markForceNewCluster(EtcdCluster cluster, String member, String value) {
        client.resources(EtcdMember.class)
                .inNamespace(ns(cluster))
                .withName(member)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        annotation(EtcdOperatorApi.ANNOTATION_FORCE_NEW_CLUSTER, value));
    }

    /** A JSON merge patch that sets one annotation, or removes it when {@code value} is null. */
    private String annotation(String key, String value) {
        return client.getKubernetesSerialization()
                .asJson(Map.of("metadata", Map.of("annotations", Collections.singletonMap(key, value))));
    }

    private static String ns(EtcdCluster cluster) {
        return cluster.getMetadata().getNamespace();
    }
}
