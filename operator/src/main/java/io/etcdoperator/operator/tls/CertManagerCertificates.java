package io.etcdoperator.operator.tls;

import io.etcdoperator.api.v1alpha2.ClientCertManager;
import io.etcdoperator.api.v1alpha2.ClusterTls;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.IssuerRef;
import io.etcdoperator.api.v1alpha2.PeerCertManager;
import io.etcdoperator.operator.resources.Labels;
import io.etcdoperator.operator.resources.Owners;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code cert-manager.io/v1} Certificates a cluster in cert-manager mode needs: server (serverAuth+clientAuth,
 * since etcd's gateway dials itself with it), peer (both ends of peer traffic) and, for mTLS, the operator's client
 * certificate (clientAuth only). Owned by the cluster, so garbage collection removes them.
 */
public final class CertManagerCertificates {

    public static final String API_VERSION = "cert-manager.io/v1";
    public static final String KIND = "Certificate";
    public static final String ISSUER_GROUP = "cert-manager.io";
    private static final List<String> SERVER_USAGES =
            List.of("server auth", "client auth", "digital signature", "key encipherment");
    private static final List<String> CLIENT_USAGES = List.of("client auth", "digital signature", "key encipherment");

    private CertManagerCertificates() {}

    /** Every Certificate the cluster's spec asks for, in a stable order (server, operator-client, peer). */
    public static List<GenericKubernetesResource> forCluster(EtcdCluster cluster, String clusterDomain) {
        TlsNames names = new TlsNames(
                cluster.getMetadata().getName(), cluster.getMetadata().getNamespace(), clusterDomain);
        ClusterTls tls = cluster.getSpec().getTls();
        List<GenericKubernetesResource> out = new ArrayList<>();
        ClientCertManager client =
                tls == null || tls.getClient() == null ? null : tls.getClient().getCertManager();
        if (client != null) {
            out.add(certificate(
                    cluster,
                    names.serverCertificate(),
                    names.serverSecret(),
                    client.getServerIssuerRef(),
                    names.serverDnsNames(),
                    names.ipAddresses(),
                    SERVER_USAGES));
            if (client.getOperatorClientIssuerRef() != null) {
                out.add(certificate(
                        cluster,
                        names.operatorClientCertificate(),
                        names.operatorClientSecret(),
                        client.getOperatorClientIssuerRef(),
                        List.of(),
                        List.of(),
                        CLIENT_USAGES));
            }
        }
        PeerCertManager peer =
                tls == null || tls.getPeer() == null ? null : tls.getPeer().getCertManager();
        if (peer != null) {
            out.add(certificate(
                    cluster,
                    names.peerCertificate(),
                    names.peerSecret(),
                    peer.getIssuerRef(),
                    names.peerDnsNames(),
                    names.ipAddresses(),
                    SERVER_USAGES));
        }
        return out;
    }

    public static boolean usesCertManager(EtcdCluster cluster) {
        ClusterTls tls = cluster.getSpec().getTls();
        return tls != null
                && (tls.getClient() != null && tls.getClient().getCertManager() != null
                        || tls.getPeer() != null && tls.getPeer().getCertManager() != null);
    }

    private static GenericKubernetesResource certificate(
            EtcdCluster cluster,
            String name,
            String secret,
            IssuerRef issuer,
            List<String> dnsNames,
            List<String> ipAddresses,
            List<String> usages) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("secretName", secret);
        spec.put("commonName", name);
        if (!dnsNames.isEmpty()) {
            spec.put("dnsNames", dnsNames);
        }
        if (!ipAddresses.isEmpty()) {
            spec.put("ipAddresses", ipAddresses);
        }
        spec.put("usages", usages);
        spec.put("privateKey", Map.of("algorithm", "RSA", "size", 2048, "encoding", "PKCS8"));
        spec.put(
                "issuerRef",
                Map.of(
                        "name",
                        issuer.getName(),
                        "kind",
                        issuer.getKind() == null ? IssuerRef.KIND_ISSUER : issuer.getKind(),
                        "group",
                        ISSUER_GROUP));
        return new GenericKubernetesResourceBuilder()
                .withApiVersion(API_VERSION)
                .withKind(KIND)
                .withMetadata(new ObjectMetaBuilder()
                        .withName(name)
                        .withNamespace(cluster.getMetadata().getNamespace())
                        .withLabels(Labels.cluster(cluster.getMetadata().getName()))
                        .withOwnerReferences(Owners.controller(cluster))
                        .build())
                .withAdditionalProperties(Map.of("spec", spec))
                .build();
    }
}
