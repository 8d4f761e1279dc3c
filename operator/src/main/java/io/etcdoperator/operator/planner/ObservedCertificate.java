package io.etcdoperator.operator.planner;

import java.time.Duration;
import java.time.Instant;

/**
 * What the operator read from a certificate in a Secret: SHA-256 fingerprints (of it and of the CA that signed it)
 * and its validity window. Never key material.
 */
public record ObservedCertificate(String fingerprint, String issuerFingerprint, Instant notBefore, Instant notAfter) {

    /** Members' clocks may lag the operator's a little; a certificate it issues must already be valid for them. */
    public static final Duration BACKDATE = Duration.ofMinutes(5);

    /** Renewal is due once less than a third of the lifetime remains (same rule as pki's RenewalPolicy). */
    public Instant renewAfter() {
        return notAfter.minus(Duration.between(notBefore, notAfter).dividedBy(3));
    }

    public boolean renewalDue(Instant now) {
        return now.isAfter(renewAfter());
    }
}
