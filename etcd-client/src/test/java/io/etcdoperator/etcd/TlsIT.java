package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Client mTLS from PEM bytes: the right CA and client certificate get in; a foreign CA is TlsRejected. */
class TlsIT {

    private static final MemberId UNKNOWN = new MemberId(0xfeedL);

    @TempDir
    Path certs;

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void mutualTlsWithPemBytes(EtcdVersion version) throws IOException {
        TestPki pki = new TestPki("etcd-ca");
        TestPki.Issued server = pki.server();
        server.writeTo(certs.resolve("server.crt"), certs.resolve("server.key"));
        Files.write(certs.resolve("ca.crt"), pki.caPem());
        TestPki.Issued client = pki.client("root");
        var serverTls = new LocalEtcd.ServerTls(
                certs.resolve("server.crt"), certs.resolve("server.key"), certs.resolve("ca.crt"));

        try (LocalEtcd etcd = new LocalEtcd(version, Optional.of(serverTls))) {
            URI endpoint = etcd.startFirst("m1").clientUrl();
            assertThat(endpoint.getScheme()).isEqualTo("https");

            try (EtcdAdmin admin =
                    open(endpoint, new EtcdConnection.ClientTls(pki.caPem(), client.certPem(), client.keyPem()))) {
                assertThat(admin.members().members()).extracting(Member::name).containsExactly("m1");
                assertThat(admin.status(endpoint).version()).isEqualTo(version.release());
                assertThatThrownBy(() -> admin.promote(UNKNOWN)).isInstanceOf(EtcdException.MemberNotFound.class);
                assertThat(admin.authEnabled()).isFalse();
            }

            TestPki stranger = new TestPki("other-ca");
            TestPki.Issued strangerClient = stranger.client("root");
            try (EtcdAdmin admin = open(
                    endpoint,
                    new EtcdConnection.ClientTls(
                            stranger.caPem(), strangerClient.certPem(), strangerClient.keyPem()))) {
                assertRejected(version, "foreign CA: members", admin::members);
                assertRejected(version, "foreign CA: status", () -> admin.status(endpoint));
            }

            try (EtcdAdmin admin = open(
                    endpoint,
                    new EtcdConnection.ClientTls(pki.caPem(), strangerClient.certPem(), strangerClient.keyPem()))) {
                assertRejected(version, "untrusted client certificate: members", admin::members);
            }
        }
    }

    private static void assertRejected(EtcdVersion version, String what, Runnable call) {
        long started = System.nanoTime();
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(call::run);
        System.out.printf(
                "%s %s -> %s after %d ms: %s%n",
                version,
                what,
                failure == null ? "ok" : failure.getClass().getSimpleName(),
                (System.nanoTime() - started) / 1_000_000,
                failure == null ? "" : failure.getMessage());
        assertThat(failure).as(what).isInstanceOf(EtcdException.TlsRejected.class);
    }

    private static EtcdAdmin open(URI endpoint, EtcdConnection.ClientTls tls) {
        return JetcdEtcdAdmin.FACTORY.open(new EtcdConnection(
                List.of(endpoint), Optional.of(tls), Optional.empty(), EtcdConnection.DEFAULT_TIMEOUT));
    }
}
