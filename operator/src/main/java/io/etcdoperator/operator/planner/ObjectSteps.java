package io.etcdoperator.operator.planner;

import io.etcdoperator.operator.reason.Reason;

/**
 * The steps that keep the cluster-wide objects in shape ({@link ClusterWideObjects}). Each is one write whose result the
 * same pass plans on again, so that a new cluster's Services do not cost it a pass of its own.
 */
public final class ObjectSteps {

    private ObjectSteps() {}

    /** Create the Service ({@code create}) or patch back the fields the operator owns. */
    public record WriteService(String service, boolean create) implements Step.Shaping {
        public Reason reason() {
            return Reason.RECONCILED;
        }
    }

    /** Create the PodDisruptionBudget ({@code create}) or set its minAvailable back (and maxUnavailable unset). */
    public record WriteBudget(int minAvailable, boolean create) implements Step.Shaping {
        public Reason reason() {
            return Reason.RECONCILED;
        }
    }

    /** No voter is left to protect: the PodDisruptionBudget goes (a drain would otherwise be blocked for nothing). */
    public record DeleteBudget() implements Step.Shaping {
        public Reason reason() {
            return Reason.RECONCILED;
        }
    }
}
