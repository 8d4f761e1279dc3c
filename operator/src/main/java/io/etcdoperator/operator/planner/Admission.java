package io.etcdoperator.operator.planner;

import java.util.List;

/**
 * What is read before anything is observed: what the cluster's name is refused for (it never changes), whether the
 * spec asks for a cert-manager that is not there, whether a target (and the cluster token) is latched yet, and what
 * the spec is refused for.
 */
public record Admission(
        List<Refusal> nameRefusals, boolean certManagerMissing, boolean targetLatched, List<Refusal> refusals) {

    public Admission(boolean certManagerMissing, boolean targetLatched, List<Refusal> refusals) {
        this(List.of(), certManagerMissing, targetLatched, refusals);
    }
}
