package io.etcdoperator.pki;

import java.util.ArrayList;
import java.util.List;

/**
 * The names a cluster's certificates must cover. Members are dialled as {@code <member>.<cluster>.<ns>.svc} (the
 * headless Service), clients use the {@code <cluster>-client} Service, and etcd's peer listener matches a peer's
 * reverse-DNS name ({@code ...svc.<domain>}) against the wildcards, so both forms are needed.
 */
public record ClusterDnsNames(String cluster, String namespace, String clusterDomain) {

    public static final String LOCALHOST = "localhost";
    public static final String LOOPBACK_IP = "127.0.0.1";

    public List<String> memberWildcards() {
        return List.of("*." + headless(), "*." + headless() + "." + clusterDomain);
    }

    public List<String> headlessService() {
        return List.of(headless(), headless() + "." + clusterDomain);
    }

    public List<String> clientService() {
        String client = cluster + "-client";
        return List.of(
                client,
                client + "." + namespace,
                client + "." + namespace + ".svc",
                client + "." + namespace + ".svc." + clusterDomain);
    }

    /** Server certificate: every member, both Services, and loopback for in-Pod tools and probes. */
    public SubjectAltNames server() {
        List<String> dns = new ArrayList<>(memberWildcards());
        dns.addAll(headlessService());
        dns.addAll(clientService());
        dns.add(LOCALHOST);
        return new SubjectAltNames(dns, List.of(LOOPBACK_IP));
    }

    /** Peer certificate: every member (it is both the server and the client side of peer traffic), and loopback. */
    public SubjectAltNames peer() {
        List<String> dns = new ArrayList<>(memberWildcards());
        dns.add(LOCALHOST);
        return new SubjectAltNames(dns, List.of(LOOPBACK_IP));
    }

    private String headless() {
        return cluster + "." + namespace + ".svc";
    }
}
