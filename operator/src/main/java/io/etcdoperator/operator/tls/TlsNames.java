package io.etcdoperator.operator.tls;

import io.etcdoperator.pki.ClusterDnsNames;
import java.util.List;

/**
 * Secret and Certificate names and the DNS/IP SANs of a cluster's certificates. Members are dialled as
 * {@code <member>.<cluster>.<ns>.svc}; etcd's peer listener also matches a peer's reverse-DNS name
 * ({@code ...svc.<domain>}) against the wildcards, so both forms are listed (see pki's ClusterDnsNames).
 */
public record TlsNames(String cluster, String namespace, String clusterDomain) {

    public String serverCertificate() {
        return cluster + "-server";
    }

    public String serverSecret() {
        return cluster + "-server-tls";
    }

    public String peerCertificate() {
        return cluster + "-peer";
    }

    public String peerSecret() {
        return cluster + "-peer-tls";
    }

    public String operatorClientCertificate() {
        return cluster + "-operator-client";
    }

    public String operatorClientSecret() {
        return cluster + "-operator-client-tls";
    }

    /** Operator-issued mode only: the CA's certificate, key and trust bundle. */
    public String caSecret() {
        return cluster + "-ca";
    }

    public List<String> serverDnsNames() {
        return dns().server().dnsNames();
    }

    public List<String> peerDnsNames() {
        return dns().peer().dnsNames();
    }

    public List<String> ipAddresses() {
        return dns().server().ipAddresses();
    }

    /** The SANs, shared with the pki module so cert-manager and operator-issued certificates name the same hosts. */
    public ClusterDnsNames dns() {
        return new ClusterDnsNames(cluster, namespace, clusterDomain);
    }
}
