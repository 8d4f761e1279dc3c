package io.etcdoperator.pki;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** A certificate's validity window. X.509 stores whole seconds, so both ends are truncated to seconds. */
public record Validity(Instant notBefore, Instant notAfter) {

    public Validity {
        notBefore = notBefore.truncatedTo(ChronoUnit.SECONDS);
        notAfter = notAfter.truncatedTo(ChronoUnit.SECONDS);
        if (!notAfter.isAfter(notBefore)) {
            throw new IllegalArgumentException("notAfter " + notAfter + " must be after notBefore " + notBefore);
        }
    }

    /**
     * Valid from {@code backdate} before now (clocks of the members and the operator differ a little) until now plus
     * the lifetime.
     */
    public static Validity starting(Instant now, Duration lifetime, Duration backdate) {
        return new Validity(now.minus(backdate), now.plus(lifetime));
    }

    public static Validity of(X509Certificate certificate) {
        return new Validity(
                certificate.getNotBefore().toInstant(),
                certificate.getNotAfter().toInstant());
    }

    public Duration lifetime() {
        return Duration.between(notBefore, notAfter);
    }

    public boolean validAt(Instant instant) {
        return !instant.isBefore(notBefore) && !instant.isAfter(notAfter);
    }

    /** This window, ending no later than {@code outer} ends: a leaf must not outlive the CA that signed it. */
    public Validity within(Validity outer) {
        Instant end = notAfter.isAfter(outer.notAfter) ? outer.notAfter : notAfter;
        Instant start = notBefore.isBefore(outer.notBefore) ? outer.notBefore : notBefore;
        return new Validity(start, end);
    }
}
