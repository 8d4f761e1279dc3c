package io.etcdoperator.operator.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.planner.LeafRole;
import io.etcdoperator.operator.planner.MemberMaterial;
import io.etcdoperator.operator.resources.Golden;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TlsSecretsTest {

    private final TlsNames names = new TlsNames("etcd", "prod", "cluster.local");
    private final byte[] cert = "-----BEGIN CERTIFICATE-----\nplaceholder-cert\n-----END CERTIFICATE-----\n"
            .getBytes(StandardCharsets.US_ASCII);
    private final byte[] key = "placeholder-key".getBytes(StandardCharsets.US_ASCII);
    private final byte[] bundle = "placeholder-bundle".getBytes(StandardCharsets.US_ASCII);

    @Test
    void caSecretIsAKubernetesTlsSecretOwnedByTheCluster() {
        Golden.assertMatches(
                "secret-operator-issued-ca", TlsSecrets.ca(TlsClusters.cluster(null), names, cert, key, bundle));
    }

    @Test
    void peerSecretIsAKubernetesTlsSecretOwnedByTheCluster() {
        Golden.assertMatches(
                "secret-operator-issued-peer",
                TlsSecrets.leaf(TlsClusters.cluster(null), names, LeafRole.PEER, cert, key, bundle));
    }

    @Test
    void eachRoleHasTheSecretNameMembersAndTheDialerAlreadyUse() {
        var cluster = TlsClusters.cluster(null);

        assertThat(List.of(LeafRole.values()))
                .extracting(r -> TlsSecrets.leaf(cluster, names, r, cert, key, bundle)
                        .getMetadata()
                        .getName())
                .containsExactly("etcd-server-tls", "etcd-peer-tls", "etcd-operator-client-tls");
    }

    @Test
    void syncTrustReplacesOnlyTheBundle() {
        Secret before = TlsSecrets.leaf(TlsClusters.cluster(null), names, LeafRole.SERVER, cert, key, bundle);

        Secret after = TlsSecrets.withTrust(before, "two-cas".getBytes(StandardCharsets.US_ASCII));

        assertThat(decode(after, "ca.crt")).isEqualTo("two-cas");
        assertThat(after.getData())
                .containsEntry("tls.crt", before.getData().get("tls.crt"))
                .containsEntry("tls.key", before.getData().get("tls.key"));
        assertThat(decode(before, "ca.crt")).isEqualTo("placeholder-bundle");
        assertThat(after.toString()).doesNotContain("placeholder-key");
    }

    @Test
    void memberMaterialRoundTripsThroughPodAnnotations() {
        MemberMaterial material = new MemberMaterial("aa", "bb", List.of("c1", "c2"));

        assertThat(MemberMaterial.fromAnnotations(material.annotations())).contains(material);
        assertThat(MemberMaterial.fromAnnotations(Map.of(MemberMaterial.SERVER_ANNOTATION, "aa")))
                .isEmpty();
        assertThat(MemberMaterial.fromAnnotations(null)).isEqualTo(Optional.empty());
        assertThat(material.annotations()).containsKey("etcd-operator.cozystack.io/tls-trusted-sha256");
    }

    private static String decode(Secret secret, String key) {
        return new String(Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.US_ASCII);
    }
}
