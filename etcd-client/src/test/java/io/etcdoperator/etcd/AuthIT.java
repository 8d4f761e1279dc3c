package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** enableAuth, then who gets in: nobody anonymous, not a wrong password, the right one does. */
class AuthIT {

    private static final MemberId UNKNOWN = new MemberId(0x1234_5678_9abcL);

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void onlyTheRootPasswordGetsInAfterEnableAuth(EtcdVersion version) {
        String password = "pw-" + UUID.randomUUID();
        String wrongPassword = "wrong-" + UUID.randomUUID();
        try (LocalEtcd etcd = new LocalEtcd(version)) {
            URI endpoint = etcd.startFirst("m1").clientUrl();
            try (EtcdAdmin anonymous = open(endpoint, Optional.empty())) {
                assertThat(anonymous.authEnabled()).isFalse();
                anonymous.enableAuth(password);
                assertThat(anonymous.authEnabled()).isTrue();

                assertThatThrownBy(() -> anonymous.remove(UNKNOWN)).isInstanceOf(EtcdException.AuthRequired.class);
                assertThatThrownBy(() -> anonymous.promote(UNKNOWN)).isInstanceOf(EtcdException.AuthRequired.class);
            }
            try (EtcdAdmin wrong = open(endpoint, Optional.of(new EtcdConnection.Credentials("root", wrongPassword)))) {
                assertThatThrownBy(wrong::members)
                        .isInstanceOf(EtcdException.AuthRejected.class)
                        .message()
                        .doesNotContain(wrongPassword)
                        .doesNotContain(password);
                assertThatThrownBy(() -> wrong.promote(UNKNOWN))
                        .isInstanceOf(EtcdException.AuthRejected.class)
                        .message()
                        .doesNotContain(wrongPassword);
            }
            try (EtcdAdmin root = open(endpoint, Optional.of(new EtcdConnection.Credentials("root", password)))) {
                assertThat(root.members().members()).extracting(Member::name).containsExactly("m1");
                assertThat(root.status(endpoint).version()).isEqualTo(version.release());
                assertThatThrownBy(() -> root.remove(UNKNOWN)).isInstanceOf(EtcdException.MemberNotFound.class);
                assertThatThrownBy(() -> root.promote(UNKNOWN)).isInstanceOf(EtcdException.MemberNotFound.class);
                assertThat(root.authEnabled()).isTrue();
                root.enableAuth(password); // idempotent: root exists, role granted, auth already on
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void credentialsAreHarmlessBeforeAuthIsEnabled(EtcdVersion version) {
        String password = "pw-" + UUID.randomUUID();
        try (LocalEtcd etcd = new LocalEtcd(version)) {
            URI endpoint = etcd.startFirst("m1").clientUrl();
            try (EtcdAdmin root = open(endpoint, Optional.of(new EtcdConnection.Credentials("root", password)))) {
                assertThat(root.authEnabled()).isFalse();
                assertThat(root.members().members()).hasSize(1);
                assertThatThrownBy(() -> root.promote(UNKNOWN)).isInstanceOf(EtcdException.MemberNotFound.class);

                root.enableAuth(password);

                assertThat(root.authEnabled()).isTrue();
            }
            try (EtcdAdmin root = open(endpoint, Optional.of(new EtcdConnection.Credentials("root", password)))) {
                assertThat(root.members().members()).hasSize(1);
                assertThatThrownBy(() -> root.remove(UNKNOWN)).isInstanceOf(EtcdException.MemberNotFound.class);
            }
        }
    }

    private static EtcdAdmin open(URI endpoint, Optional<EtcdConnection.Credentials> credentials) {
        return JetcdEtcdAdmin.FACTORY.open(
                new EtcdConnection(List.of(endpoint), Optional.empty(), credentials, EtcdConnection.DEFAULT_TIMEOUT));
    }
}
