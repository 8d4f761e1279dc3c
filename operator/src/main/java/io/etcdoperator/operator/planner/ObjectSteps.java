package io.etcdoperator.operator.planner;

import io.etcdoperator.operator.reason.Reason;

/**
 * The steps that keep the cluster-wide objects in shape ({@link ClusterWideObjects}). Each is one write whose result the
 * same pass plans on again, so that a new cluster's Services do not cost it a pass of its own.
 */
public final class ObjectSteps {

    private ObjectSteps() {}

    /** A write to a Service, a Certificate or the PodDisruptionBudget. */
    public sealed interface Write extends Step.Shaping
            permits WriteService, CreateCertificate, WriteBudget, DeleteBudget {}

    /** Create the Service ({@code create}) or patch back the fields the operator owns. */
    public record WriteService(String service, boolean create) implements Write {
        public Reason reason() {
            return Reason.RECONCILED;
        }
    }

    /** Create a cert-manager Certificate the cluster's spec.tls asks for (never patched: cert-manager owns it). */
    public record CreateCertificate(String certificate) implements Write {
        public Reason reason() {
            return Reason.CERTIFICATE_CREATED;
        }
    }

    /** Create the PodDisruptionBudget ({@code create}) or set its minAvailable back (and maxUnavailable unset). */
    public record WriteBudget(int minAvailable, boolean create) implements Write {
        public Reason reason() {
            return Reason.RECONCILED;
        }
    }

    /** No voter is left to protect: the PodDisruptionBudget goes (a drain would otherwise be blocked for nothing). */
    public record DeleteBudget() implements Write {
        public Reason reason() {
            return Reason.RECONCILED;
        }
    }
}
