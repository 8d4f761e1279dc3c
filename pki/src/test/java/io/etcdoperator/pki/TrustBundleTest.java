package io.etcdoperator.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TrustBundleTest {

    private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
    private final RenewalPolicy policy = RenewalPolicy.DEFAULT;
    private final ClusterDnsNames names = new ClusterDnsNames("etcd", "prod", "cluster.local");
    private final CertificateAuthority oldCa = CertificateAuthority.create("prod/etcd", policy.caValidity(NOW));
    private final CertificateAuthority newCa =
            CertificateAuthority.create("prod/etcd", policy.caValidity(NOW.plusSeconds(60)));
    private final CertifiedKey oldLeaf = oldCa.issue(LeafProfile.PEER, "p", names.peer(), policy.leafValidity(NOW));
    private final CertifiedKey newLeaf =
            newCa.issue(LeafProfile.PEER, "p", names.peer(), policy.leafValidity(NOW.plusSeconds(60)));
    private final Instant later = NOW.plusSeconds(120);

    @Test
    void aSingleCaBundleVerifiesItsOwnLeavesOnly() {
        TrustBundle bundle = TrustBundle.of(oldCa.certificate());

        assertThat(bundle.issuerOf(oldLeaf.certificate(), later)).contains(oldCa.certificate());
        assertThat(bundle.verifies(newLeaf.certificate(), later)).isFalse();
    }

    @Test
    void duringRotationBothGenerationsVerifyAndEachAgainstItsOwnCa() {
        TrustBundle switching = TrustBundle.of(oldCa.certificate()).plus(newCa.certificate());

        assertThat(switching.authorities()).containsExactly(oldCa.certificate(), newCa.certificate());
        assertThat(switching.issuerOf(oldLeaf.certificate(), later)).contains(oldCa.certificate());
        assertThat(switching.issuerOf(newLeaf.certificate(), later)).contains(newCa.certificate());
        assertThat(switching.plus(newCa.certificate())).isEqualTo(switching);
    }

    @Test
    void afterRotationOldLeavesAreNoLongerTrusted() {
        TrustBundle finished =
                TrustBundle.of(oldCa.certificate()).plus(newCa.certificate()).retainOnly(newCa.certificate());

        assertThat(finished.authorities()).containsExactly(newCa.certificate());
        assertThat(finished.verifies(newLeaf.certificate(), later)).isTrue();
        assertThat(finished.verifies(oldLeaf.certificate(), later)).isFalse();
        assertThatThrownBy(() -> finished.retainOnly(oldCa.certificate())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void pemRoundTripKeepsOrderAndFingerprints() {
        TrustBundle switching = TrustBundle.of(oldCa.certificate()).plus(newCa.certificate());

        TrustBundle back = TrustBundle.fromPem(switching.pem());

        assertThat(back).isEqualTo(switching);
        assertThat(back.fingerprints())
                .containsExactly(Fingerprint.of(oldCa.certificate()), Fingerprint.of(newCa.certificate()));
        assertThat(back.fingerprints().getFirst().sha256()).hasSize(64).matches("[0-9a-f]+");
    }

    @Test
    void anExpiredLeafOrALeafFromTheFutureDoesNotVerify() {
        TrustBundle bundle = TrustBundle.of(oldCa.certificate());

        assertThat(bundle.verifies(oldLeaf.certificate(), NOW.plus(Duration.ofDays(91))))
                .isFalse();
        assertThat(bundle.verifies(oldLeaf.certificate(), NOW.minus(Duration.ofHours(1))))
                .isFalse();
    }

    @Test
    void anExpiredCaVerifiesNothing() {
        CertificateAuthority shortCa =
                CertificateAuthority.create("short", Validity.starting(NOW, Duration.ofDays(1), Duration.ZERO));
        CertifiedKey leaf = shortCa.issue(
                LeafProfile.PEER, "p", names.peer(), Validity.starting(NOW, Duration.ofHours(1), Duration.ZERO));
        // the leaf itself is still inside its window here only if the CA window were ignored
        Instant afterCa = NOW.plus(Duration.ofDays(2));

        assertThat(TrustBundle.of(shortCa.certificate()).verifies(leaf.certificate(), NOW.plusSeconds(10)))
                .isTrue();
        assertThat(TrustBundle.of(shortCa.certificate()).verifies(leaf.certificate(), afterCa))
                .isFalse();
    }

    @Test
    void aLeafIsNotAnAcceptableTrustAnchorForAnotherLeaf() {
        TrustBundle wrong = TrustBundle.of(oldLeaf.certificate());

        assertThat(wrong.verifies(newLeaf.certificate(), later)).isFalse();
        assertThatThrownBy(() -> TrustBundle.fromPem("no pem".getBytes())).isInstanceOf(PkiException.class);
    }
}
