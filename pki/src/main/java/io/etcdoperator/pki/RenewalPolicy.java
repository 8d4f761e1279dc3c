package io.etcdoperator.pki;

import java.time.Duration;
import java.time.Instant;

/**
 * Lifetimes of the CA and of leaves, and when to replace them: once less than a third of a certificate's lifetime
 * remains. A third leaves time for a full rolling restart (and, for the CA, two more) before anything expires.
 */
public record RenewalPolicy(Duration caLifetime, Duration leafLifetime, Duration backdate) {

    public static final Duration DEFAULT_CA_LIFETIME = Duration.ofDays(5 * 365);
    public static final Duration DEFAULT_LEAF_LIFETIME = Duration.ofDays(90);
    public static final Duration DEFAULT_BACKDATE = Duration.ofMinutes(5);
    public static final RenewalPolicy DEFAULT =
            new RenewalPolicy(DEFAULT_CA_LIFETIME, DEFAULT_LEAF_LIFETIME, DEFAULT_BACKDATE);

    public RenewalPolicy {
        if (leafLifetime.compareTo(caLifetime) > 0) {
            throw new IllegalArgumentException("leaf lifetime " + leafLifetime + " exceeds CA lifetime " + caLifetime);
        }
        if (leafLifetime.isNegative() || leafLifetime.isZero() || backdate.isNegative()) {
            throw new IllegalArgumentException("lifetimes must be positive and the backdate not negative");
        }
    }

    public Validity caValidity(Instant now) {
        return Validity.starting(now, caLifetime, backdate);
    }

    public Validity leafValidity(Instant now) {
        return Validity.starting(now, leafLifetime, backdate);
    }

    /** The instant after which the certificate is due for renewal. */
    public static Instant renewAfter(Validity validity) {
        return validity.notAfter().minus(validity.lifetime().dividedBy(3));
    }

    /** True once less than a third of the lifetime remains (exactly a third is not yet due). */
    public static boolean renewalDue(Validity validity, Instant now) {
        return now.isAfter(renewAfter(validity));
    }
}
