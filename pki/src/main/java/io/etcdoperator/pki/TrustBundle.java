package io.etcdoperator.pki;

import java.security.GeneralSecurityException;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The CA certificates members and clients trust ({@code ca.crt}). Normally one; during a CA rotation the old and the
 * new CA together, so leaves from either verify while members restart one at a time. Oldest first.
 */
public record TrustBundle(List<X509Certificate> authorities) {

    public TrustBundle {
        if (authorities.isEmpty()) {
            throw new IllegalArgumentException("a trust bundle needs at least one CA");
        }
        authorities = List.copyOf(authorities);
    }

    public static TrustBundle of(X509Certificate authority) {
        return new TrustBundle(List.of(authority));
    }

    public static TrustBundle fromPem(byte[] pem) {
        List<X509Certificate> certificates = Pem.certificates(pem);
        if (certificates.isEmpty()) {
            throw new PkiException("no CA certificate in the trust bundle");
        }
        return new TrustBundle(certificates);
    }

    public byte[] pem() {
        return Pem.encode(authorities);
    }

    /** The start of a rotation: this bundle plus the new CA (unchanged if it is already trusted). */
    public TrustBundle plus(X509Certificate authority) {
        if (contains(authority)) {
            return this;
        }
        List<X509Certificate> next = new ArrayList<>(authorities);
        next.add(authority);
        return new TrustBundle(next);
    }

    /** The end of a rotation: only the CA that now signs. */
    public TrustBundle retainOnly(X509Certificate authority) {
        if (!contains(authority)) {
            throw new IllegalArgumentException("cannot retain a CA the bundle does not hold");
        }
        return of(authority);
    }

    public boolean contains(X509Certificate authority) {
        Fingerprint wanted = Fingerprint.of(authority);
        return authorities.stream().anyMatch(a -> Fingerprint.of(a).equals(wanted));
    }

    public List<Fingerprint> fingerprints() {
        return authorities.stream().map(Fingerprint::of).toList();
    }

    /** The CA in this bundle that a PKIX path validation at {@code at} accepts for the leaf, if any. */
    public Optional<X509Certificate> issuerOf(X509Certificate leaf, Instant at) {
        return authorities.stream().filter(ca -> validates(leaf, ca, at)).findFirst();
    }

    public boolean verifies(X509Certificate leaf, Instant at) {
        return issuerOf(leaf, at).isPresent();
    }

    @Override
    public String toString() {
        return "TrustBundle"
                + fingerprints().stream().map(Fingerprint::shortForm).toList();
    }

    private static boolean validates(X509Certificate leaf, X509Certificate ca, Instant at) {
        try {
            PKIXParameters parameters = new PKIXParameters(Set.of(new TrustAnchor(ca, null)));
            parameters.setRevocationEnabled(false);
            parameters.setDate(Date.from(at));
            // The anchor's own validity is not checked by PKIX; an expired CA must not verify anything.
            ca.checkValidity(Date.from(at));
            var path = CertificateFactory.getInstance("X.509").generateCertPath(List.of(leaf));
            CertPathValidator.getInstance("PKIX").validate(path, parameters);
            return true;
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
