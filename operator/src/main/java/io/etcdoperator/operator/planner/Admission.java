package io.etcdoperator.operator.planner;

import java.util.List;

/**
 * What is read before anything is observed: whether the spec asks for a cert-manager that is not there, whether a
 * target (and the cluster token) is latched yet, and what the spec is refused for.
 */
public record Admission(boolean certManagerMissing, boolean targetLatched, List<Refusal> refusals) {}
