package io.etcdoperator.operator.planner;

import java.util.List;
import java.util.Optional;

/**
 * The cluster-wide objects as read for one pass: both Services (headless first) and the voter PodDisruptionBudget.
 * What they should hold is the builders' and the planner's to say ({@link ClusterWideObjects}).
 */
public record OwnedObjects(List<ServiceShape> services, Budget budget) {

    public OwnedObjects {
        services = List.copyOf(services);
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
                budget);
    }

    public OwnedObjects with(Budget written) {
        return new OwnedObjects(services, written);
    }
}
