package io.etcdoperator.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.planner.MemberMaterial;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TlsSecretVersionsTest {

    @Test
    void theValueListsSecretsByName() {
        assertThat(TlsSecretVersions.value(Map.of("z-peer", "12", "a-server", "7")))
                .contains("a-server=7,z-peer=12");
        assertThat(TlsSecretVersions.value(Map.of())).isEmpty();
    }

    @Test
    void aStampedMemberBuildsAPodWithAnotherRevisionAndTheOriginalIsUntouched() {
        EtcdMember member = Fixtures.member("member-mtls");
        EtcdMember stamped = TlsSecretVersions.stamped(member, Optional.of("a-server=7"));
        assertThat(MemberPods.revision(stamped)).isNotEqualTo(MemberPods.revision(member));
        assertThat(MemberPods.build(stamped, "etcd:v3.5.16", true).getMetadata().getAnnotations())
                .containsEntry(TlsSecretVersions.ANNOTATION, "a-server=7");
        assertThat(member.getMetadata().getAnnotations()).doesNotContainKey(TlsSecretVersions.ANNOTATION);
        assertThat(TlsSecretVersions.stamped(member, Optional.empty())).isSameAs(member);
    }

    @Test
    void operatorIssuedMembersRecordFingerprintsNotSecretVersions() {
        EtcdMember member = Fixtures.member("member-mtls");
        member.getMetadata().setAnnotations(new HashMap<>(new MemberMaterial("s", "p", List.of("ca")).annotations()));
        assertThat(TlsSecretVersions.secrets(member)).isEmpty();
    }
}
