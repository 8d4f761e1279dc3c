package io.etcdoperator.operator.tls;

import java.util.ArrayList;
import java.util.List;

/**
 * Secret and Certificate names and the DNS/IP SANs of a cluster's certificates. Members are dialled as
 * {@code <member>.<cluster>.<ns>.svc}; etcd's peer listener also matches a peer's reverse-DNS name
 * ({@code ...svc.<domain>}) against the wildcards, so both forms are listed. Mirrors pki's ClusterDnsNames.
 */
public record TlsNames(String cluster, String namespace, String clusterDomain) {

  public static final String LOCALHOST = "localhost";
  public static final String LOOPBACK_IP = "127.0.0.1";

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
    List<String> dns = new ArrayList<>(memberWildcards());
    dns.add(headless());
    dns.add(headless() + "." + clusterDomain);
    String client = cluster + "-client";
    dns.addAll(List.of(client, client + "." + namespace, client + "." + namespace + ".svc",
        client + "." + namespace + ".svc." + clusterDomain));
    dns.add(LOCALHOST);
    return dns;
  }

  public List<String> peerDnsNames() {
    List<String> dns = new ArrayList<>(memberWildcards());
    dns.add(LOCALHOST);
    return dns;
  }

  public List<String> ipAddresses() {
    return List.of(LOOPBACK_IP);
  }

  private List<String> memberWildcards() {
    return List.of("*." + headless(), "*." + headless() + "." + clusterDomain);
  }

  private String headless() {
    return cluster + "." + namespace + ".svc";
  }
}
