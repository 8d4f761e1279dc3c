package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.operator.reason.Reason;
import java.util.List;
import java.util.Optional;

/** The steps of quorum recovery ({@link QuorumLoss}) and of the reset after every member lost its data ({@link AllMembersLost}). */
public final class QuorumLossSteps {

    private QuorumLossSteps() {}

    /**
     * Quorum recovery nobody asked for: the majority lost its data and {@code survivor} is the only voter left. Recorded
     * as the force-new-cluster-from annotation, so the steps that follow are the ones a person's request takes.
     */
    public record StartQuorumRecovery(String survivor, List<String> lost) implements Step.Recovering {
        public Reason reason() {
            return Reason.QUORUM_RECOVERY;
        }
    }

    /**
     * Quorum recovery: mark the chosen member for one start with --force-new-cluster and restart its Pod; {@code
     * inPlace} (a memory member): its Pod is kept and etcd-guard restarts etcd in it when the Pod's annotation asks.
     */
    public record ForceNewCluster(String member, boolean inPlace) implements Step.Recovering {
        public ForceNewCluster(String member) {
            this(member, false);
        }

        public Reason reason() {
            return Reason.QUORUM_RECOVERY;
        }

        @Override
        public Optional<String> stops() {
            return Optional.of(member); // its Pod is deleted, or its guard restarts etcd in it
        }
    }

    /**
     * Quorum recovery: delete every member the forced cluster dropped, together (etcd already removed them; their Pods
     * and stale volumes go, and their finalizers can reach only the survivor).
     */
    public record DiscardMembers(List<String> members, String survivor) implements Step.Recovering {
        public Reason reason() {
            return Reason.QUORUM_RECOVERY;
        }
    }

    /** Quorum recovery done: the survivor restarts without the flag and the annotation goes; scale-up follows. */
    public record EndForceNewCluster(String member, boolean inPlace) implements Step.Recovering {
        public EndForceNewCluster(String member) {
            this(member, false);
        }

        public Reason reason() {
            return Reason.QUORUM_RECOVERED;
        }

        @Override
        public Optional<String> stops() {
            return inPlace ? Optional.empty() : Optional.of(member); // in place, etcd keeps running
        }
    }

    /**
     * Every member lost its data and a person asked for an empty cluster: release the members' volumes (kept, no
     * owner) and delete the EtcdMembers together; their finalizers skip MemberRemove, there is no etcd left to ask.
     */
    public record ReleaseAllMembers(List<String> members) implements Step.Recovering {
        public Reason reason() {
            return Reason.CLUSTER_RESET;
        }
    }

    /** The lost cluster's id is unlatched: the next pass bootstraps an empty cluster from a new seed. */
    public record ForgetCluster(ClusterId lost) implements Step.Recovering {
        public Reason reason() {
            return Reason.CLUSTER_RESET;
        }
    }

    /** The force-new-cluster-from annotation goes: the cluster already runs from {@code member} alone. */
    public record ClearRecoveryRequest(String member) implements Step.Recovering {
        public Reason reason() {
            return Reason.QUORUM_RECOVERED;
        }
    }
}
