package io.etcdoperator.operator.tls;

import java.time.Instant;

/** The single next thing to do for operator-issued TLS. Each step is one write (or none), then a new pass. */
public sealed interface TlsStep {

    /** Create the CA Secret: a new CA that signs, and a bundle holding only it. */
    record CreateCa() implements TlsStep {}

    /** Issue a missing leaf from the current signer. */
    record IssueLeaf(LeafRole role) implements TlsStep {}

    /** Replace a leaf with one from the current signer. */
    record RenewLeaf(LeafRole role, Why why) implements TlsStep {
        public enum Why {
            EXPIRING,
            SIGNER_CHANGED,
            REQUESTED
        }
    }

    /** Copy the CA Secret's bundle into the leaf Secret's ca.crt. */
    record SyncTrust(LeafRole role) implements TlsStep {}

    /** Restart this member (delete its Pod) so it starts with the current material. */
    record RollMember(String member) implements TlsStep {}

    /** A member is not healthy; no member is restarted until it is. */
    record WaitHealthy(String member) implements TlsStep {}

    /** Make a new CA the signer and trust old and new together. */
    record StartCaRotation() implements TlsStep {}

    /** Every member and leaf has moved to the signer: trust only it from now on. */
    record RetireOldCa() implements TlsStep {}

    /** Nothing to do until {@code recheckAt}, when the earliest certificate becomes due for renewal. */
    record Converged(Instant recheckAt) implements TlsStep {}
}
