package io.etcdoperator.operator.planner;

import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import java.util.List;
import java.util.Optional;

/**
 * What is read before anything is observed: what the cluster's name is refused for (it never changes), whether the
 * spec asks for a cert-manager that is not there, whether a target (and the cluster token) is latched yet, what the
 * spec is refused for, and the target to latch once for a cluster taken over from cozystack's operator
 * ({@link Refusals#takenOverTarget}).
 */
public record Admission(
        List<Refusal> nameRefusals,
        boolean certManagerMissing,
        boolean targetLatched,
        List<Refusal> refusals,
        Optional<ObservedClusterSpec> takenOverTarget) {

    public Admission(boolean certManagerMissing, boolean targetLatched, List<Refusal> refusals) {
        this(List.of(), certManagerMissing, targetLatched, refusals, Optional.empty());
    }
}
