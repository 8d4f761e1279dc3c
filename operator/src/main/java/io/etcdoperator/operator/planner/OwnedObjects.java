package io.etcdoperator.operator.planner;

import java.util.List;
import java.util.Optional;

/**
 * The cluster-wide objects as read for one pass: both Services (headless first), the voter PodDisruptionBudget and
 * cert-manager Certificates (none without spec.tls asking for them). What they should hold is the builders' and the
 * planner's to say ({@link ClusterWideObjects}).
 */
public record OwnedObjects(List<ServiceShape> services, Budget budget, List<CertificateShape> certificates) {

    public OwnedObjects {
        services = List.copyOf(services);
        certificates = List.copyOf(certificates);
    }

    /** Without cert-manager Certificates. */
    public OwnedObjects(List<ServiceShape> services, Budget budget) {
        this(services, budget, List.of());
    }

    /** How an object of the cluster's name compares with what the cluster wants there. */
    public enum Shape {
        ABSENT,
        /** Not controlled by this EtcdCluster: never touched. */
        FOREIGN,
        /** Ours, with a field the operator owns changed (a Service's selector, ports, publishNotReadyAddresses). */
        DRIFTED,
        IN_SHAPE
    }

    public record ServiceShape(String name, Shape shape) {}

    /** A Certificate is created once and never patched (cert-manager owns it): absent, foreign or in shape. */
    public record CertificateShape(String name, Shape shape) {}

    /**
     * The PodDisruptionBudget: absent, foreign, or ours ({@code IN_SHAPE}) with the integer minAvailable it has
     * (empty when unset or a percentage) and whether someone set maxUnavailable.
     */
    public record Budget(Shape shape, Optional<Integer> minAvailable, boolean maxUnavailable) {
        public static final Budget ABSENT = new Budget(Shape.ABSENT, Optional.empty(), false);
        /** Could not be read this pass: treated as another's, never written. */
        public static final Budget UNREAD = new Budget(Shape.FOREIGN, Optional.empty(), false);

        public static Budget ours(int minAvailable) {
            return new Budget(Shape.IN_SHAPE, Optional.of(minAvailable), false);
        }
    }

    /** What a write of the pass left: the step's object now in {@code shape} (a 409 reads what is there). */
    public OwnedObjects with(String service, Shape shape) {
        return new OwnedObjects(
                services.stream()
                        .map(s -> s.name().equals(service) ? new ServiceShape(service, shape) : s)
                        .toList(),
                budget,
                certificates);
    }

    public OwnedObjects with(Budget written) {
        return new OwnedObjects(services, written, certificates);
    }

    public OwnedObjects withCertificate(String certificate, Shape shape) {
        return new OwnedObjects(
                services,
                budget,
                certificates.stream()
                        .map(c -> c.name().equals(certificate) ? new CertificateShape(certificate, shape) : c)
                        .toList());
    }
}
