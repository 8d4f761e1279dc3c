package io.etcdoperator.operator.planner;

import io.etcdoperator.operator.planner.OwnedObjects.Budget;
import io.etcdoperator.operator.planner.OwnedObjects.Shape;
import java.util.Optional;

/**
 * Both Services before anything else (members find their peers through the headless one), then the cert-manager
 * Certificates (their Secrets are the members' material); the PodDisruptionBudget once
 * a cluster id is latched: a majority of max(voters, target) stays up, and with no voter it goes. A foreign object is
 * never written: a foreign Service holds the cluster ({@link Step.ServiceConflict}), a foreign budget is only logged.
 */
final class ClusterWideObjects {

    private ClusterWideObjects() {}

    static Optional<Step> next(OwnedObjects objects, ObservedCluster observed, int desired) {
        Optional<Step> service = objects.services().stream()
                .filter(s -> s.shape() != Shape.IN_SHAPE)
                .findFirst()
                .map(s -> s.shape() == Shape.FOREIGN
                        ? new Step.ServiceConflict("Service " + s.name()
                                + " exists and is not controlled by this EtcdCluster; rename or delete it")
                        : new ObjectSteps.WriteService(s.name(), s.shape() == Shape.ABSENT));
        Optional<Step> certificate = objects.certificates().stream()
                .filter(c -> c.shape() == Shape.ABSENT) // a foreign one (a predecessor's) is looked for again
                .findFirst()
                .map(c -> new ObjectSteps.CreateCertificate(c.name()));
        return service.or(() -> certificate)
                .or(() -> observed.clusterId().isPresent()
                        ? budget(objects.budget(), observed, desired)
                        : Optional.empty());
    }

    private static Optional<Step> budget(Budget budget, ObservedCluster observed, int desired) {
        int voters = observed.voterCount();
        return switch (budget.shape()) {
            case FOREIGN -> Optional.empty();
            case ABSENT ->
                voters == 0
                        ? Optional.empty()
                        : Optional.of(new ObjectSteps.WriteBudget(Quorum.minAvailable(voters, desired), true));
            case DRIFTED, IN_SHAPE -> {
                if (voters == 0) {
                    yield Optional.of(new ObjectSteps.DeleteBudget());
                }
                int wanted = Quorum.minAvailable(voters, desired);
                boolean kept = budget.minAvailable().equals(Optional.of(wanted)) && !budget.maxUnavailable();
                yield kept ? Optional.empty() : Optional.of(new ObjectSteps.WriteBudget(wanted, false));
            }
        };
    }
}
