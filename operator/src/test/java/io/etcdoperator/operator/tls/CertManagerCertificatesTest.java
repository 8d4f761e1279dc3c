package io.etcdoperator.operator.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.IssuerRef;
import io.etcdoperator.operator.resources.Golden;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CertManagerCertificatesTest {

    private final List<GenericKubernetesResource> fullMtls = CertManagerCertificates.forCluster(
            TlsClusters.certManager("etcd-ca", "etcd-ca", "etcd-ca", null), "cluster.local");

    @Test
    void fullMtlsEmitsServerOperatorClientAndPeer() {
        assertThat(fullMtls)
                .extracting(c -> c.getMetadata().getName())
                .containsExactly("etcd-server", "etcd-operator-client", "etcd-peer");
    }

    @Test
    void serverCertificateMatchesTheGolden() {
        Golden.assertMatches("certificate-server", fullMtls.get(0));
    }

    @Test
    void operatorClientCertificateMatchesTheGolden() {
        Golden.assertMatches("certificate-operator-client", fullMtls.get(1));
    }

    @Test
    void peerCertificateMatchesTheGolden() {
        Golden.assertMatches("certificate-peer", fullMtls.get(2));
    }

    @Test
    void serverCertificateCoversMembersServicesAndLoopbackInTheDiscoveredDomain() {
        var server = CertManagerCertificates.forCluster(TlsClusters.certManager("i", null, null, null), "corp.example")
                .getFirst();

        assertThat(list(server, "dnsNames"))
                .containsExactly(
                        "*.etcd.prod.svc",
                        "*.etcd.prod.svc.corp.example",
                        "etcd.prod.svc",
                        "etcd.prod.svc.corp.example",
                        "etcd-client",
                        "etcd-client.prod",
                        "etcd-client.prod.svc",
                        "etcd-client.prod.svc.corp.example",
                        "localhost");
        assertThat(list(server, "ipAddresses")).containsExactly("127.0.0.1");
        assertThat(list(server, "usages")).contains("server auth", "client auth");
        assertThat(spec(server).get("secretName")).isEqualTo("etcd-server-tls");
    }

    @Test
    void operatorClientIsClientAuthOnlyWithoutSans() {
        var client = CertManagerCertificates.forCluster(TlsClusters.certManager("i", "c", null, null), "cluster.local")
                .get(1);

        assertThat(list(client, "usages")).contains("client auth").doesNotContain("server auth");
        assertThat(spec(client)).doesNotContainKeys("dnsNames", "ipAddresses");
        assertThat(spec(client).get("secretName")).isEqualTo("etcd-operator-client-tls");
    }

    @Test
    void serverTlsOnlyHasNoOperatorClientCertificate() {
        var certificates =
                CertManagerCertificates.forCluster(TlsClusters.certManager("i", null, null, null), "cluster.local");

        assertThat(certificates).extracting(c -> c.getMetadata().getName()).containsExactly("etcd-server");
    }

    @Test
    void clusterIssuerKindIsKeptAndIssuerGroupIsCertManager() {
        var peer = CertManagerCertificates.forCluster(
                        TlsClusters.certManager(null, null, "root-ca", IssuerRef.KIND_CLUSTER_ISSUER), "cluster.local")
                .getFirst();

        assertThat(spec(peer).get("issuerRef"))
                .isEqualTo(Map.of("name", "root-ca", "kind", "ClusterIssuer", "group", "cert-manager.io"));
        assertThat(list(peer, "usages")).contains("server auth", "client auth");
        assertThat(list(peer, "dnsNames"))
                .containsExactly("*.etcd.prod.svc", "*.etcd.prod.svc.cluster.local", "localhost");
    }

    @Test
    void bringYourOwnSecretsNeedNoCertificate() {
        assertThat(CertManagerCertificates.forCluster(TlsClusters.bringYourOwn(), "cluster.local"))
                .isEmpty();
        assertThat(CertManagerCertificates.usesCertManager(TlsClusters.bringYourOwn()))
                .isFalse();
        assertThat(CertManagerCertificates.forCluster(TlsClusters.cluster(null), "cluster.local"))
                .isEmpty();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource certificate) {
        return (Map<String, Object>) certificate.getAdditionalProperties().get("spec");
    }

    @SuppressWarnings("unchecked")
    private static List<String> list(GenericKubernetesResource certificate, String key) {
        return (List<String>) spec(certificate).get(key);
    }
}
