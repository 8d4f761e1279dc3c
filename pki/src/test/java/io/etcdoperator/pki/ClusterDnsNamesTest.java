package io.etcdoperator.pki;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClusterDnsNamesTest {

    private final ClusterDnsNames names = new ClusterDnsNames("etcd", "prod", "cluster.local");

    @Test
    void serverCoversEveryMemberBothServicesAndLoopback() {
        SubjectAltNames server = names.server();

        assertThat(server.dnsNames())
                .containsExactly(
                        "*.etcd.prod.svc",
                        "*.etcd.prod.svc.cluster.local",
                        "etcd.prod.svc",
                        "etcd.prod.svc.cluster.local",
                        "etcd-client",
                        "etcd-client.prod",
                        "etcd-client.prod.svc",
                        "etcd-client.prod.svc.cluster.local",
                        "localhost");
        assertThat(server.ipAddresses()).containsExactly("127.0.0.1");
    }

    @Test
    void peerCoversEveryMemberWithAndWithoutTheDomainButNoService() {
        SubjectAltNames peer = names.peer();

        assertThat(peer.dnsNames()).containsExactly("*.etcd.prod.svc", "*.etcd.prod.svc.cluster.local", "localhost");
        assertThat(peer.ipAddresses()).containsExactly("127.0.0.1");
    }

    @Test
    void theClusterDomainIsUsedAsGiven() {
        assertThat(new ClusterDnsNames("e", "ns", "corp.example").memberWildcards())
                .containsExactly("*.e.ns.svc", "*.e.ns.svc.corp.example");
    }
}
