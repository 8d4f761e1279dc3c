package io.etcdoperator.operator.planner;

import io.etcdoperator.operator.reason.Reason;

/**
 * One write of operator-issued TLS: a Secret, or the material stamp on one EtcdMember. Planned before the target latch
 * (members cannot start, nor the operator dial, without the material); the pass observes the TLS Secrets again after
 * each one. docs/tls.md#rotation gives the order.
 */
public sealed interface TlsWrite extends Step.Shaping, TlsStep {

    /** The reason of the event that names what was written. */
    @Override
    default Reason reason() {
        return switch (this) {
            case CreateCa s -> Reason.TLS_CA_CREATED;
            case IssueLeaf s -> Reason.TLS_CERTIFICATE_ISSUED;
            case RenewLeaf s -> Reason.TLS_CERTIFICATE_ISSUED;
            case SyncTrust s -> Reason.TLS_TRUST_SYNCED;
            case StartCaRotation s -> Reason.TLS_CA_ROTATION_STARTED;
            case RetireOldCa s -> Reason.TLS_OLD_CA_RETIRED;
            case StampMaterial s -> Reason.RECONCILED;
        };
    }

    /** Create the CA Secret: a new CA that signs, and a bundle holding only it. */
    record CreateCa() implements TlsWrite {}

    /** Issue a missing leaf from the current signer. */
    record IssueLeaf(LeafRole role) implements TlsWrite {}

    /** Replace a leaf with one from the current signer. */
    record RenewLeaf(LeafRole role, Why why) implements TlsWrite {
        public enum Why {
            EXPIRING,
            SIGNER_CHANGED,
            REQUESTED
        }
    }

    /** Copy the CA Secret's bundle into the leaf Secret's ca.crt. */
    record SyncTrust(LeafRole role) implements TlsWrite {}

    /** Make a new CA the signer and trust old and new together. */
    record StartCaRotation() implements TlsWrite {}

    /** Every member and leaf has moved to the signer: trust only it from now on. */
    record RetireOldCa() implements TlsWrite {}

    /**
     * The EtcdMember carries the material the Secrets hold now; the member controller copies it onto the Pod it
     * creates, and the roller restarts a Pod that runs other material.
     */
    record StampMaterial(String member, MemberMaterial material) implements TlsWrite {}
}
