package io.etcdoperator.operator.planner;

import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.reason.Reason;
import java.util.List;
import java.util.Optional;

/**
 * Every voter provably lost its data: nothing can be recovered in place, and no step is taken on its own. The status
 * says so and names the two ways out (docs/operations.md#all-members-lost); a person picks one.
 */
final class AllMembersLost {

    private AllMembersLost() {}

    /** The reset a person asked for: release the members (volumes kept), then bootstrap an empty cluster. */
    static Optional<Step> reset(ObservedCluster observed) {
        if (!observed.recourse().resetAsked()) {
            return Optional.empty();
        }
        List<String> members = observed.members().stream()
                .filter(m -> !m.deleting())
                .map(ObservedMember::name)
                .sorted()
                .toList();
        if (!members.isEmpty()) {
            return Optional.of(new QuorumLossSteps.ReleaseAllMembers(members));
        }
        if (observed.anyDeleting()) {
            return Optional.of(new Step.Wait(
                    Reason.ALL_MEMBERS_LOST, "released members are being deleted", ClusterPlanner.MEDIUM));
        }
        return Optional.of(
                new QuorumLossSteps.ForgetCluster(observed.clusterId().orElseThrow()));
    }

    static String message(ObservedCluster observed, List<String> lost) {
        String id = observed.clusterId().map(Object::toString).orElse("?");
        String restore = observed.recourse()
                .newestSnapshot()
                .map(s -> "create a new EtcdCluster with spec.bootstrap.restore from EtcdSnapshot " + s
                        + " (the newest " + "successful one)")
                .orElse("create a new EtcdCluster with spec.bootstrap.restore from a snapshot (none of this cluster "
                        + "succeeded)");
        return "every member lost its data " + lost + ": the data of etcd cluster " + id + " is gone and nothing is "
                + "restarted on its own. Either " + restore + ", or annotate this EtcdCluster "
                + EtcdOperatorApi.ANNOTATION_RESET_EMPTY + "=" + id + " to start an empty cluster under the same name "
                + "(volumes are kept, released); docs/operations.md#all-members-lost";
    }
}
