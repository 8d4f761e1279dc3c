package io.etcdoperator.localkube.network;

import java.nio.file.Path;
import java.util.Optional;

/** Gives Pods their own IP addresses; one per local cluster, shared by its nodes. */
public interface PodNetwork extends AutoCloseable {

    /** A new sandbox for a Pod; {@code label} only makes names readable. */
    PodSandbox allocate(String label);

    /** How Pods are networked, for logs and docs: "bridge 10.234.3.0/24" or "loopback". */
    String describe();

    /** The address by which Pods reach a server on this host that listens on all interfaces (a test's S3, say). */
    String hostAddress();

    /** Where Pods send DNS queries (their resolv.conf names it), when they have a resolver of their own. */
    default Optional<String> dnsServer() {
        return Optional.empty();
    }

    @Override
    void close();

    /**
     * Network namespaces on a bridge when this process may create them (root with iproute2), else loopback
     * addresses. {@code stateDir} holds what the loopback variant needs.
     */
    static PodNetwork create(Path stateDir, boolean allowNamespaces) {
        if (allowNamespaces && BridgeNetwork.available()) {
            return BridgeNetwork.create();
        }
        return new LoopbackNetwork(stateDir);
    }
}
