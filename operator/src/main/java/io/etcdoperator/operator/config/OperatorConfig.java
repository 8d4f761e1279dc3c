package io.etcdoperator.operator.config;

import io.etcdoperator.operator.planner.ClusterPlanner;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Operator-wide settings, validated once at startup. A bad value stops the operator with a message naming the flag,
 * rather than surfacing later as a broken Pod.
 */
public record OperatorConfig(
        InetSocketAddress metricsAddress,
        InetSocketAddress probeAddress,
        boolean leaderElection,
        String leaseNamespace,
        String identity,
        String clusterDomain,
        Optional<String> operatorImage,
        String etcdImageRepository,
        List<String> watchNamespaces,
        Duration memberMinReady) {

    public static final String PLACEHOLDER_IMAGE = "controller:latest";
    public static final String DEFAULT_ETCD_REPOSITORY = "quay.io/coreos/etcd";
    public static final String LEASE_NAME = "etcd-operator-leader";

    /** With the default --member-min-ready-seconds. */
    public OperatorConfig(
            InetSocketAddress metricsAddress,
            InetSocketAddress probeAddress,
            boolean leaderElection,
            String leaseNamespace,
            String identity,
            String clusterDomain,
            Optional<String> operatorImage,
            String etcdImageRepository,
            List<String> watchNamespaces) {
        this(
                metricsAddress,
                probeAddress,
                leaderElection,
                leaseNamespace,
                identity,
                clusterDomain,
                operatorImage,
                etcdImageRepository,
                watchNamespaces,
                ClusterPlanner.MIN_READY);
    }

    public OperatorConfig {
        watchNamespaces = List.copyOf(watchNamespaces);
        if (memberMinReady.isNegative()) {
            throw new InvalidConfigException(
                    "--member-min-ready-seconds must not be negative, got " + memberMinReady.toSeconds());
        }
        if (operatorImage.filter(PLACEHOLDER_IMAGE::equals).isPresent()) {
            throw new InvalidConfigException("--operator-image (OPERATOR_IMAGE) is the placeholder '"
                    + PLACEHOLDER_IMAGE + "'; set it to the image this operator runs from");
        }
        String lastSegment = etcdImageRepository.substring(etcdImageRepository.lastIndexOf('/') + 1);
        if (etcdImageRepository.isBlank() || lastSegment.contains(":") || etcdImageRepository.contains("@")) {
            throw new InvalidConfigException(
                    "--etcd-image-repository must be a repository without a tag, got '" + etcdImageRepository + "'");
        }
        if (!clusterDomain.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")) {
            throw new InvalidConfigException("--cluster-domain '" + clusterDomain + "' is not a DNS name");
        }
    }

    /** "host:port" or ":port" (all interfaces), as controller-runtime operators spell bind addresses. */
    public static InetSocketAddress bindAddress(String flag, String value) {
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            throw new InvalidConfigException(flag + " must look like ':8080' or '127.0.0.1:8080', got '" + value + "'");
        }
        String host = value.substring(0, colon);
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new InvalidConfigException(flag + " has no numeric port: '" + value + "'");
        }
        if (port < 0 || port > 65535) {
            throw new InvalidConfigException(flag + " port out of range: " + port);
        }
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    public static List<String> namespaces(String commaSeparated) {
        if (commaSeparated == null || commaSeparated.isBlank()) {
            return List.of();
        }
        return List.of(commaSeparated.split(",")).stream()
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    /** The etcd image for a version: repository:v<version>. */
    public String etcdImage(String version) {
        return etcdImageRepository + ":v" + version;
    }

    public static final class InvalidConfigException extends RuntimeException {
        public InvalidConfigException(String message) {
            super(message);
        }
    }
}
