package io.etcdoperator.operator.planner;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Container resources the API server would reject on every member Pod: unreadable, negative, requests over limits. */
final class ResourceRules {

    private ResourceRules() {}

    static void check(String field, ResourceRequirements resources, List<String> errors) {
        if (resources == null) {
            return;
        }
        Map<String, Quantity> limits = resources.getLimits() == null ? Map.of() : resources.getLimits();
        Map<String, Quantity> requests = resources.getRequests() == null ? Map.of() : resources.getRequests();
        limits.forEach((name, q) -> readable(field + ".limits." + name, q, errors));
        requests.forEach((name, q) -> readable(field + ".requests." + name, q, errors)
                .ifPresent(request -> {
                    Optional<BigDecimal> limit =
                            limits.containsKey(name) ? SpecRules.bytes(limits.get(name)) : Optional.empty();
                    if (limit.isPresent() && request.compareTo(limit.get()) > 0) {
                        errors.add(field + ".requests." + name + " (" + q + ") must not exceed " + field + ".limits."
                                + name + " (" + limits.get(name) + ")");
                    }
                }));
    }

    private static Optional<BigDecimal> readable(String path, Quantity q, List<String> errors) {
        Optional<BigDecimal> amount = SpecRules.bytes(q);
        if (amount.isEmpty()) {
            errors.add(path + " '" + q + "' is not a quantity");
        } else if (amount.get().signum() < 0) {
            errors.add(path + " must not be negative, got " + q);
            return Optional.empty();
        }
        return amount;
    }
}
