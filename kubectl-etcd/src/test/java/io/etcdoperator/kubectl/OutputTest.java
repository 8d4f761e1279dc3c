package io.etcdoperator.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdoperator.etcd.Alarm;
import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Tables, sizes, the leadership target and the credentials Secret, without a cluster. */
class OutputTest {

    private static final Membership MEMBERSHIP = new Membership(
            new ClusterId(1),
            List.of(
                    new Member(
                            new MemberId(0xa1),
                            "c-0",
                            List.of(URI.create("https://c-0.c.ns.svc:2380")),
                            List.of(URI.create("https://c-0.c.ns.svc:2379")),
                            false),
                    new Member(
                            new MemberId(0xb2),
                            "c-1",
                            List.of(URI.create("https://c-1.c.ns.svc:2380")),
                            List.of(URI.create("https://c-1.c.ns.svc:2379")),
                            false),
                    new Member(
                            new MemberId(0xc3),
                            "",
                            List.of(URI.create("https://c-3.c.ns.svc:2380")),
                            List.of(),
                            true)));

    @Test
    void membersTableListsEveryMemberWithItsUrlsAndRole() {
        assertThat(MemberCommands.table(MEMBERSHIP)).isEqualTo("""
        ID                 NAME   STATUS      PEER URLS                   CLIENT URLS                 LEARNER
        00000000000000a1   c-0    started     https://c-0.c.ns.svc:2380   https://c-0.c.ns.svc:2379   false
        00000000000000b2   c-1    started     https://c-1.c.ns.svc:2380   https://c-1.c.ns.svc:2379   false
        00000000000000c3   -      unstarted   https://c-3.c.ns.svc:2380   -                           true
        """);
    }

    @Test
    void alarmsNameTheMember() {
        assertThat(AlarmCommands.table(
                        List.of(
                                new Alarm(new MemberId(0xb2), Alarm.Kind.NOSPACE),
                                new Alarm(new MemberId(0xff), Alarm.Kind.CORRUPT)),
                        MEMBERSHIP))
                .isEqualTo("""
        ALARM     MEMBER ID          MEMBER
        NOSPACE   00000000000000b2   c-1
        CORRUPT   00000000000000ff   -
        """);
    }

    @ParameterizedTest
    @CsvSource({"0,0 B", "999,999 B", "1000,1.0 kB", "20480,20.5 kB", "9123456,9.1 MB", "2147483648,2.1 GB"})
    void sizesReadLikeEtcdctls(long bytes, String text) {
        assertThat(Table.bytes(bytes)).isEqualTo(text);
    }

    @Test
    void inUseShareOfAnEmptyDatabaseIsZero() {
        assertThat(Table.percent(0, 0)).isEqualTo("0.00%");
        assertThat(Table.percent(1, 4)).isEqualTo("25.00%");
    }

    @Test
    void leadershipGoesToTheFirstStartedVoterOrTheNamedOne() {
        assertThat(MemberCommands.transferee(MEMBERSHIP, new MemberId(0xa1), null)
                        .name())
                .isEqualTo("c-1");
        assertThat(MemberCommands.transferee(MEMBERSHIP, new MemberId(0xb2), "c-0")
                        .name())
                .isEqualTo("c-0");
        assertThat(MemberCommands.transferee(MEMBERSHIP, new MemberId(0xb2), "00000000000000A1")
                        .name())
                .isEqualTo("c-0");
        assertThatThrownBy(() -> MemberCommands.transferee(MEMBERSHIP, new MemberId(0xa1), "00000000000000c3"))
                .hasMessageContaining("is not a started voter");
        Membership alone =
                new Membership(new ClusterId(1), List.of(MEMBERSHIP.members().getFirst()));
        assertThatThrownBy(() -> MemberCommands.transferee(alone, new MemberId(0xa1), null))
                .hasMessageContaining("no other started voter");
    }

    @Test
    void credentialsSecretIsNameOrNamespaceSlashName() {
        assertThat(RootCredentials.secretRef("creds", "ns")).containsExactly("ns", "creds");
        assertThat(RootCredentials.secretRef("other/creds", "ns")).containsExactly("other", "creds");
        assertThatThrownBy(() -> RootCredentials.secretRef("a/b/c", "ns"))
                .hasMessageContaining("NAME or NAMESPACE/NAME");
        assertThatThrownBy(() -> RootCredentials.secretRef("/creds", "ns")).isInstanceOf(PluginException.class);
    }

    @Test
    void credentialsDefaultToUserRootAndNeverShowThePassword() {
        EtcdConnection.Credentials c = RootCredentials.of(secret("password", "s3cret\n"));
        assertThat(c.user()).isEqualTo("root");
        assertThat(c.password()).isEqualTo("s3cret");
        assertThat(c.toString()).doesNotContain("s3cret");
        assertThat(RootCredentials.of(secret("username", "admin", "password", "pw"))
                        .user())
                .isEqualTo("admin");
        assertThatThrownBy(() -> RootCredentials.of(secret("username", "root")))
                .hasMessage("Secret ns/creds has no password");
    }

    private static Secret secret(String... pairs) {
        SecretBuilder secret = new SecretBuilder()
                .withNewMetadata()
                .withName("creds")
                .withNamespace("ns")
                .endMetadata();
        for (int i = 0; i < pairs.length; i += 2) {
            secret.addToData(
                    pairs[i], Base64.getEncoder().encodeToString(pairs[i + 1].getBytes(StandardCharsets.UTF_8)));
        }
        return secret.build();
    }
}
