package io.etcdoperator.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.etcdoperator.api.v1alpha2.ClientCertManager;
import io.etcdoperator.api.v1alpha2.ClientTls;
import io.etcdoperator.api.v1alpha2.ClusterTls;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterSpec;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.IssuerRef;
import io.etcdoperator.api.v1alpha2.OperatorIssuedTls;
import io.etcdoperator.api.v1alpha2.PeerCertManager;
import io.etcdoperator.api.v1alpha2.PeerTls;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MemberTlsViewTest {

    static Stream<Arguments> clusters() {
        return Stream.of(
                arguments("no tls", null, null, new MemberTlsView(null, false, null, false)),
                arguments(
                        "BYO server only",
                        tls(byoClient("srv", null), null),
                        null,
                        new MemberTlsView("srv", false, null, false)),
                arguments(
                        "BYO server + operator client = mTLS",
                        tls(byoClient("srv", "op"), null),
                        null,
                        new MemberTlsView("srv", true, null, false)),
                arguments(
                        "BYO peer only",
                        tls(null, byoPeer("peer")),
                        null,
                        new MemberTlsView(null, false, "peer", false)),
                arguments(
                        "BYO both planes",
                        tls(byoClient("srv", "op"), byoPeer("peer")),
                        null,
                        new MemberTlsView("srv", true, "peer", false)),
                arguments(
                        "BYO blank secret name is no secret",
                        tls(byoClient(" ", null), null),
                        null,
                        new MemberTlsView(null, false, null, false)),
                arguments(
                        "operator-issued = mTLS and peer TLS from the operator's Secrets",
                        operatorIssued(),
                        null,
                        new MemberTlsView("demo-server-tls", true, "demo-peer-tls", false)),
                arguments(
                        "cert-manager server only",
                        tls(certManagerClient(false), null),
                        null,
                        new MemberTlsView("demo-server-tls", false, null, false)),
                arguments(
                        "cert-manager with operator client = mTLS",
                        tls(certManagerClient(true), null),
                        null,
                        new MemberTlsView("demo-server-tls", true, null, false)),
                arguments(
                        "cert-manager both planes",
                        tls(certManagerClient(true), certManagerPeer()),
                        null,
                        new MemberTlsView("demo-server-tls", true, "demo-peer-tls", false)),
                arguments("peer-auto-tls annotation", null, "true", new MemberTlsView(null, false, null, true)),
                arguments(
                        "peer-auto-tls with client TLS",
                        tls(byoClient("srv", null), null),
                        "true",
                        new MemberTlsView("srv", false, null, true)),
                arguments(
                        "explicit peer TLS overrides peer-auto-tls",
                        tls(null, byoPeer("peer")),
                        "true",
                        new MemberTlsView(null, false, "peer", false)),
                arguments(
                        "cert-manager peer overrides peer-auto-tls",
                        tls(null, certManagerPeer()),
                        "true",
                        new MemberTlsView(null, false, "demo-peer-tls", false)),
                arguments(
                        "peer-auto-tls only for exactly \"true\"",
                        null,
                        "false",
                        new MemberTlsView(null, false, null, false)),
                arguments(
                        "peer-auto-tls is case-sensitive", null, "True", new MemberTlsView(null, false, null, false)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void ofCluster(String why, ClusterTls tls, String peerAutoTls, MemberTlsView expected) {
        assertThat(MemberTlsView.of(cluster(tls, peerAutoTls))).isEqualTo(expected);
    }

    /** What the cluster derives is copied onto the member at creation; reading it back must give the same view. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void survivesTheCopyOntoTheMember(String why, ClusterTls tls, String peerAutoTls, MemberTlsView expected) {
        EtcdMember member = new EtcdMember();
        member.setMetadata(new ObjectMetaBuilder().withName("demo-a").build());
        member.setSpec(new EtcdMemberSpec());
        member.getSpec().setTls(expected.toMemberTls());
        assertThat(MemberTlsView.of(member)).isEqualTo(expected);
        assertThat(expected.toMemberTls() == null).isEqualTo(!expected.clientTls() && !expected.peerTls());
    }

    static EtcdCluster cluster(ClusterTls tls, String peerAutoTls) {
        EtcdCluster cluster = new EtcdCluster();
        var meta = new ObjectMetaBuilder().withName("demo").withNamespace("prod");
        if (peerAutoTls != null) {
            meta.withAnnotations(Map.of(EtcdOperatorApi.ANNOTATION_PEER_AUTO_TLS, peerAutoTls));
        }
        cluster.setMetadata(meta.build());
        cluster.setSpec(new EtcdClusterSpec());
        cluster.getSpec().setTls(tls);
        return cluster;
    }

    static ClusterTls tls(ClientTls client, PeerTls peer) {
        ClusterTls tls = new ClusterTls();
        tls.setClient(client);
        tls.setPeer(peer);
        return tls;
    }

    static ClientTls byoClient(String server, String operatorClient) {
        ClientTls client = new ClientTls();
        client.setServerSecretRef(new LocalObjectReference(server));
        client.setOperatorClientSecretRef(operatorClient == null ? null : new LocalObjectReference(operatorClient));
        return client;
    }

    static ClientTls certManagerClient(boolean operatorClient) {
        ClientCertManager certManager = new ClientCertManager();
        certManager.setServerIssuerRef(issuer());
        certManager.setOperatorClientIssuerRef(operatorClient ? issuer() : null);
        ClientTls client = new ClientTls();
        client.setCertManager(certManager);
        return client;
    }

    static PeerTls byoPeer(String secret) {
        PeerTls peer = new PeerTls();
        peer.setSecretRef(new LocalObjectReference(secret));
        return peer;
    }

    static PeerTls certManagerPeer() {
        PeerCertManager certManager = new PeerCertManager();
        certManager.setIssuerRef(issuer());
        PeerTls peer = new PeerTls();
        peer.setCertManager(certManager);
        return peer;
    }

    private static IssuerRef issuer() {
        IssuerRef issuer = new IssuerRef();
        issuer.setName("ca");
        issuer.setKind(IssuerRef.KIND_CLUSTER_ISSUER);
        return issuer;
    }

    private static ClusterTls operatorIssued() {
        ClusterTls tls = new ClusterTls();
        tls.setOperatorIssued(new OperatorIssuedTls());
        return tls;
    }
}
