package io.etcdoperator.pki.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.etcd.EtcdVersion;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.pki.CertificateAuthority;
import io.etcdoperator.pki.CertifiedKey;
import io.etcdoperator.pki.ClusterDnsNames;
import io.etcdoperator.pki.LeafProfile;
import io.etcdoperator.pki.RenewalPolicy;
import io.etcdoperator.pki.SubjectAltNames;
import io.etcdoperator.pki.TrustBundle;
import io.etcdoperator.pki.Validity;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** etcd 3.4 and 3.5 with certificates from the pki module: server TLS, mTLS, peer TLS, wrong CA, expired leaves. */
class PkiTlsIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private final Instant now = Instant.now();
    private final RenewalPolicy policy =
            new RenewalPolicy(Duration.ofDays(2), Duration.ofHours(1), Duration.ofMinutes(1));
    private final ClusterDnsNames dns = new ClusterDnsNames("etcd", "it", "cluster.local");
    // valid since yesterday, so it can also sign leaves that have already expired
    private final CertificateAuthority ca = CertificateAuthority.create(
            "it/etcd", Validity.starting(now.minus(Duration.ofDays(1)), Duration.ofDays(2), Duration.ZERO));
    private final TrustBundle trust = TrustBundle.of(ca.certificate());
    private final CertificateAuthority stranger = CertificateAuthority.create("elsewhere", policy.caValidity(now));

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void serverTlsOnlyNeedsJustTheCa(EtcdVersion version) {
        try (TlsEtcd etcd = new TlsEtcd(version, new TlsEtcd.Planes(true, false, false), "m1")) {
            etcd.startAll(material(ca));
            TlsEtcd.Node m1 = etcd.node("m1");
            assertThat(m1.clientUrl().getScheme()).isEqualTo("https");

            try (EtcdAdmin admin = etcd.admin(etcd.clientUrls(), ClientMaterial.trusting(trust), TIMEOUT)) {
                assertThat(admin.members().members()).extracting(Member::name).containsExactly("m1");
                assertThat(admin.status(m1.clientUrl()).version()).isEqualTo(version.release());
            }
            assertRefused(
                    version,
                    "server TLS, client trusts a foreign CA",
                    EtcdException.TlsRejected.class,
                    etcd,
                    ClientMaterial.trusting(TrustBundle.of(stranger.certificate())),
                    EtcdAdmin::members);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void clientMtlsAdmitsOnlyCertificatesFromTheClusterCa(EtcdVersion version) {
        try (TlsEtcd etcd = new TlsEtcd(version, new TlsEtcd.Planes(true, true, false), "m1")) {
            etcd.startAll(material(ca));

            try (EtcdAdmin admin =
                    etcd.admin(etcd.clientUrls(), ClientMaterial.mutual(trust, operatorClient(ca)), TIMEOUT)) {
                assertThat(admin.members().members())
                        .singleElement()
                        .satisfies(m -> assertThat(m.started()).isTrue());
                assertThat(admin.authEnabled()).isFalse();
            }
            assertRefused(
                    version,
                    "mTLS, no client certificate",
                    EtcdException.TlsRejected.class,
                    etcd,
                    ClientMaterial.trusting(trust),
                    EtcdAdmin::members);
            assertRefused(
                    version,
                    "mTLS, client certificate from a foreign CA",
                    EtcdException.TlsRejected.class,
                    etcd,
                    ClientMaterial.mutual(trust, operatorClient(stranger)),
                    EtcdAdmin::members);
            assertRefused(
                    version,
                    "mTLS, client trusts a foreign CA",
                    EtcdException.TlsRejected.class,
                    etcd,
                    ClientMaterial.mutual(TrustBundle.of(stranger.certificate()), operatorClient(ca)),
                    EtcdAdmin::members);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void peerTlsFormsAThreeMemberClusterWithOneLeader(EtcdVersion version) {
        try (TlsEtcd etcd = new TlsEtcd(version, TlsEtcd.Planes.FULL, "m1", "m2", "m3")) {
            etcd.startAll(material(ca));
            ClientMaterial client = ClientMaterial.mutual(trust, operatorClient(ca));
            List<EndpointStatus> statuses =
                    etcd.nodes().stream().map(n -> etcd.awaitHealthy(n, client)).toList();

            try (EtcdAdmin admin = etcd.admin(etcd.clientUrls(), client, TIMEOUT)) {
                Membership membership = admin.members();
                assertThat(membership.voters()).hasSize(3).allSatisfy(m -> {
                    assertThat(m.started()).isTrue();
                    assertThat(m.peerUrls())
                            .allSatisfy(u -> assertThat(u.getScheme()).isEqualTo("https"));
                });
            }
            assertThat(statuses)
                    .extracting(EndpointStatus::leader)
                    .doesNotContainNull()
                    .containsOnly(statuses.getFirst().leader());
            assertThat(statuses).filteredOn(EndpointStatus::isLeader).hasSize(1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void anExpiredServerCertificateIsTlsExpired(EtcdVersion version) {
        Validity past = new Validity(now.minus(Duration.ofHours(3)), now.minus(Duration.ofHours(1)));
        CertifiedKey expired = ca.issue(LeafProfile.SERVER, "etcd-server", dns.server(), past);
        NodeTls material = new NodeTls(expired, peer(ca), trust);
        try (TlsEtcd etcd = new TlsEtcd(version, new TlsEtcd.Planes(true, true, false), "m1")) {
            etcd.startAll(material);

            EtcdException refused = assertRefused(
                    version,
                    "expired server certificate",
                    EtcdException.TlsExpired.class,
                    etcd,
                    ClientMaterial.mutual(trust, operatorClient(ca)),
                    EtcdAdmin::members);
            assertThat(refused).hasMessageContaining("expired");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void anExpiredClientCertificateIsRefusedByEtcdAndNamedByThePort(EtcdVersion version) {
        Validity past = new Validity(now.minus(Duration.ofHours(3)), now.minus(Duration.ofHours(1)));
        CertifiedKey expired = ca.issue(LeafProfile.OPERATOR_CLIENT, "root", SubjectAltNames.NONE, past);
        ClientMaterial client = ClientMaterial.mutual(trust, expired);
        try (TlsEtcd etcd = new TlsEtcd(version, new TlsEtcd.Planes(true, true, false), "m1")) {
            etcd.startAll(material(ca));

            // etcd itself: a plain jetcd client presenting the expired certificate gets nothing
            try (Client raw = Client.builder()
                    .endpoints(etcd.clientUrls().toArray(URI[]::new))
                    .sslContext(client.nettyContext())
                    .build()) {
                Throwable refused = catchThrowable(() -> raw.getKVClient()
                        .put(ByteSequence.from("k", UTF_8), ByteSequence.from("v", UTF_8))
                        .get(5, TimeUnit.SECONDS));
                System.out.printf("%s expired client certificate, raw jetcd -> %s%n", version, refused);
                assertThat(refused).isNotNull();
            }
            // the port: refuses before dialing, saying which certificate and until when it was valid
            Throwable failure = catchThrowable(
                    () -> etcd.admin(etcd.clientUrls(), client, TIMEOUT).close());
            System.out.printf("%s expired client certificate, port -> %s%n", version, failure);
            assertThat(failure)
                    .isInstanceOf(EtcdException.TlsExpired.class)
                    .hasMessageContaining("CN=root")
                    .hasMessageContaining(past.notAfter().toString());
        }
    }

    private NodeTls material(CertificateAuthority issuer) {
        return new NodeTls(
                issuer.issue(LeafProfile.SERVER, "etcd-server", dns.server(), policy.leafValidity(now)),
                peer(issuer),
                TrustBundle.of(issuer.certificate()));
    }

    private CertifiedKey peer(CertificateAuthority issuer) {
        return issuer.issue(LeafProfile.PEER, "etcd-peer", dns.peer(), policy.leafValidity(now));
    }

    private CertifiedKey operatorClient(CertificateAuthority issuer) {
        return issuer.issue(
                LeafProfile.OPERATOR_CLIENT, "etcd-operator", SubjectAltNames.NONE, policy.leafValidity(now));
    }

    private static EtcdException assertRefused(
            EtcdVersion version,
            String what,
            Class<? extends EtcdException> expected,
            TlsEtcd etcd,
            ClientMaterial client,
            Function<EtcdAdmin, ?> call) {
        long started = System.nanoTime();
        Throwable failure;
        try (EtcdAdmin admin = etcd.admin(etcd.clientUrls(), client, TIMEOUT)) {
            failure = catchThrowable(() -> call.apply(admin));
        }
        System.out.printf(
                "%s %s -> %s after %d ms: %s%n",
                version,
                what,
                failure == null ? "accepted" : failure.getClass().getSimpleName(),
                (System.nanoTime() - started) / 1_000_000,
                failure == null ? "" : failure.getMessage());
        assertThat(failure).as(what).isInstanceOf(expected);
        return (EtcdException) failure;
    }
}
