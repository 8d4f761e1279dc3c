package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.operator.reason.Reason;
import java.net.URI;
import java.util.List;

/** The steps that move a running etcd under the operator, in the order {@link Adoption} takes them. */
public final class AdoptionSteps {

    private AdoptionSteps() {}

    /** Latch the running cluster's id and record its members as external (one status write). */
    public record Adopt(ClusterId clusterId, List<MemberId> external, String summary) implements Step.Adopting {
        public Adopt {
            external = List.copyOf(external);
        }

        public Reason reason() {
            return Reason.CLUSTER_ADOPTED;
        }
    }

    /** MoveLeader, sent to the external leader's advertised client URL, to a voter of the operator's. */
    public record HandOverLeadership(URI leaderClientUrl, String leader, String transferee, MemberId transfereeId)
            implements Step.Adopting {
        public Reason reason() {
            return Reason.LEADER_MOVED;
        }
    }

    /** MemberRemove of one external member, asked for by a person, quorum-gated. */
    public record RemoveExternal(MemberId id, String name, int left) implements Step.Adopting, Step.MembershipChange {
        public Reason reason() {
            return Reason.EXTERNAL_MEMBER_REMOVED;
        }
    }

    /** etcd lists no external member any more: status.externalMembers is cleared (one status write). */
    public record Finish() implements Step.Adopting {
        public Reason reason() {
            return Reason.ADOPTION_COMPLETE;
        }
    }
}
