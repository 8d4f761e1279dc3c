package io.etcdoperator.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

class CertificateAuthorityTest {

    private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
    private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
    private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
    private static final int DNS = 2;
    private static final int IP = 7;

    private final RenewalPolicy policy = RenewalPolicy.DEFAULT;
    private final ClusterDnsNames names = new ClusterDnsNames("etcd", "prod", "cluster.local");
    private final CertificateAuthority ca = CertificateAuthority.create("prod/etcd", policy.caValidity(NOW));

    @Test
    void theCaIsASelfSignedP256CaThatMaySignOnlyLeaves() throws Exception {
        X509Certificate cert = ca.certificate();

        assertThat(cert.getBasicConstraints()).isZero(); // CA, path length 0
        assertThat(cert.getKeyUsage()[5]).as("keyCertSign").isTrue();
        assertThat(cert.getKeyUsage()[0]).as("digitalSignature").isFalse();
        assertThat(cert.getSubjectX500Principal()).isEqualTo(cert.getIssuerX500Principal());
        assertThat(cert.getSubjectX500Principal().getName()).contains("CN=prod/etcd CA 20250301T115500Z");
        assertThat(((ECPublicKey) cert.getPublicKey())
                        .getParams()
                        .getCurve()
                        .getField()
                        .getFieldSize())
                .isEqualTo(256);
        cert.verify(cert.getPublicKey());
    }

    @Test
    void serverLeafHasServerAndClientAuthAndEverySanTheClusterNeeds() throws Exception {
        X509Certificate server = ca.issue(LeafProfile.SERVER, "etcd-server", names.server(), policy.leafValidity(NOW))
                .certificate();

        assertThat(server.getExtendedKeyUsage()).containsExactly(SERVER_AUTH, CLIENT_AUTH);
        assertThat(sans(server, DNS))
                .containsExactlyElementsOf(names.server().dnsNames())
                .contains("*.etcd.prod.svc", "*.etcd.prod.svc.cluster.local", "etcd-client.prod.svc", "localhost");
        assertThat(sans(server, IP)).containsExactly("127.0.0.1");
        assertThat(server.getBasicConstraints()).isEqualTo(-1);
        assertThat(server.getKeyUsage()[0]).as("digitalSignature").isTrue();
        server.verify(ca.certificate().getPublicKey());
    }

    @Test
    void peerLeafHasBothUsagesAndTheMemberWildcards() throws Exception {
        X509Certificate peer = ca.issue(LeafProfile.PEER, "etcd-peer", names.peer(), policy.leafValidity(NOW))
                .certificate();

        assertThat(peer.getExtendedKeyUsage()).containsExactly(SERVER_AUTH, CLIENT_AUTH);
        assertThat(sans(peer, DNS)).containsExactly("*.etcd.prod.svc", "*.etcd.prod.svc.cluster.local", "localhost");
        assertThat(sans(peer, IP)).containsExactly("127.0.0.1");
    }

    @Test
    void operatorClientLeafIsClientAuthOnlyWithoutSans() throws Exception {
        X509Certificate client = ca.issue(
                        LeafProfile.OPERATOR_CLIENT, "root", SubjectAltNames.NONE, policy.leafValidity(NOW))
                .certificate();

        assertThat(client.getExtendedKeyUsage()).containsExactly(CLIENT_AUTH);
        assertThat(client.getSubjectAlternativeNames()).isNull();
        assertThat(client.getSubjectX500Principal().getName()).startsWith("CN=root");
    }

    @Test
    void leafValidityFollowsThePolicyButNeverOutlivesTheCa() {
        CertifiedKey leaf = ca.issue(LeafProfile.PEER, "p", names.peer(), policy.leafValidity(NOW));
        assertThat(leaf.validity())
                .isEqualTo(new Validity(NOW.minus(Duration.ofMinutes(5)), NOW.plus(Duration.ofDays(90))));

        CertificateAuthority shortCa =
                CertificateAuthority.create("short", Validity.starting(NOW, Duration.ofDays(10), Duration.ZERO));
        CertifiedKey clamped = shortCa.issue(LeafProfile.PEER, "p", names.peer(), policy.leafValidity(NOW));
        assertThat(clamped.validity().notAfter()).isEqualTo(NOW.plus(Duration.ofDays(10)));
    }

    @Test
    void theKeyBelongsToTheCertificateAndSerialsDiffer() throws Exception {
        CertifiedKey a = ca.issue(LeafProfile.SERVER, "s", names.server(), policy.leafValidity(NOW));
        CertifiedKey b = ca.issue(LeafProfile.SERVER, "s", names.server(), policy.leafValidity(NOW));

        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(a.privateKey());
        signer.update("proof".getBytes(StandardCharsets.UTF_8));
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance("SHA256withECDSA");
        verifier.initVerify(a.certificate().getPublicKey());
        verifier.update("proof".getBytes(StandardCharsets.UTF_8));
        assertThat(verifier.verify(signature)).isTrue();
        assertThat(a.certificate().getSerialNumber())
                .isPositive()
                .isNotEqualTo(b.certificate().getSerialNumber());
        assertThat(a.fingerprint()).isNotEqualTo(b.fingerprint());
    }

    @Test
    void twoCasOfOneClusterNeverShareASubject() {
        CertificateAuthority next = CertificateAuthority.create("prod/etcd", policy.caValidity(NOW.plusSeconds(1)));

        assertThat(next.certificate().getSubjectX500Principal())
                .isNotEqualTo(ca.certificate().getSubjectX500Principal());
    }

    @Test
    void aCaReadBackFromPemIssuesLeavesTheOriginalVerifies() throws Exception {
        CertifiedKey signer =
                CertifiedKey.fromPem(ca.signer().certificatePem(), ca.signer().privateKeyPem());
        CertifiedKey leaf =
                CertificateAuthority.of(signer).issue(LeafProfile.PEER, "p", names.peer(), policy.leafValidity(NOW));

        leaf.certificate().verify(ca.certificate().getPublicKey());
        assertThat(TrustBundle.of(ca.certificate()).verifies(leaf.certificate(), NOW))
                .isTrue();
    }

    @Test
    void aLeafCannotActAsCa() {
        CertifiedKey leaf = ca.issue(LeafProfile.SERVER, "s", names.server(), policy.leafValidity(NOW));

        assertThatThrownBy(() -> CertificateAuthority.of(leaf))
                .isInstanceOf(PkiException.class)
                .hasMessageContaining("not a CA");
    }

    @Test
    void toStringNeverShowsTheKey() {
        CertifiedKey leaf = ca.issue(LeafProfile.SERVER, "s", names.server(), policy.leafValidity(NOW));
        String keyBody = new String(leaf.privateKeyPem(), StandardCharsets.US_ASCII)
                .lines()
                .filter(l -> !l.startsWith("-----"))
                .findFirst()
                .orElseThrow();

        assertThat(leaf.toString()).contains("CN=s").doesNotContain(keyBody).doesNotContain("PRIVATE");
        assertThat(ca.toString()).doesNotContain("PRIVATE");
    }

    private static List<String> sans(X509Certificate cert, int type) throws CertificateParsingException {
        Collection<List<?>> all = Objects.requireNonNull(cert.getSubjectAlternativeNames());
        return all.stream()
                .filter(e -> (Integer) e.get(0) == type)
                .map(e -> (String) e.get(1))
                .toList();
    }
}
