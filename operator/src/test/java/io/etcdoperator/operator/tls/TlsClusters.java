package io.etcdoperator.operator.tls;

import io.etcdoperator.api.v1alpha2.ClientCertManager;
import io.etcdoperator.api.v1alpha2.ClientTls;
import io.etcdoperator.api.v1alpha2.ClusterTls;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterSpec;
import io.etcdoperator.api.v1alpha2.IssuerRef;
import io.etcdoperator.api.v1alpha2.PeerCertManager;
import io.etcdoperator.api.v1alpha2.PeerTls;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

/** EtcdCluster inputs for the TLS tests, built in code so each test shows the one spec part it is about. */
final class TlsClusters {

    private TlsClusters() {}

    static EtcdCluster certManager(String serverIssuer, String operatorClientIssuer, String peerIssuer, String kind) {
        ClusterTls tls = new ClusterTls();
        if (serverIssuer != null) {
            ClientCertManager client = new ClientCertManager();
            client.setServerIssuerRef(issuer(serverIssuer, kind));
            if (operatorClientIssuer != null) {
                client.setOperatorClientIssuerRef(issuer(operatorClientIssuer, kind));
            }
            ClientTls clientTls = new ClientTls();
            clientTls.setCertManager(client);
            tls.setClient(clientTls);
        }
        if (peerIssuer != null) {
            PeerCertManager peer = new PeerCertManager();
            peer.setIssuerRef(issuer(peerIssuer, kind));
            PeerTls peerTls = new PeerTls();
            peerTls.setCertManager(peer);
            tls.setPeer(peerTls);
        }
        return cluster(tls);
    }

    static EtcdCluster bringYourOwn() {
        ClientTls client = new ClientTls();
        client.setServerSecretRef(new LocalObjectReference("my-server"));
        client.setOperatorClientSecretRef(new LocalObjectReference("my-client"));
        PeerTls peer = new PeerTls();
        peer.setSecretRef(new LocalObjectReference("my-peer"));
        ClusterTls tls = new ClusterTls();
        tls.setClient(client);
        tls.setPeer(peer);
        return cluster(tls);
    }

    static EtcdCluster cluster(ClusterTls tls) {
        EtcdCluster cluster = new EtcdCluster();
        cluster.setMetadata(new ObjectMetaBuilder()
                .withName("etcd")
                .withNamespace("prod")
                .withUid("0b9f6a1e-8a6c-4c1e-9d3e-5a0c2f1b7e42")
                .build());
        EtcdClusterSpec spec = new EtcdClusterSpec();
        spec.setTls(tls);
        cluster.setSpec(spec);
        return cluster;
    }

    private static IssuerRef issuer(String name, String kind) {
        IssuerRef ref = new IssuerRef();
        ref.setName(name);
        ref.setKind(kind);
        return ref;
    }
}
