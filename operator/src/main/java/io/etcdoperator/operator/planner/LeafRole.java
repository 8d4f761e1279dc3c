package io.etcdoperator.operator.planner;

/** The leaves of an operator-issued cluster, in the order the planner handles them. */
public enum LeafRole {
    SERVER,
    PEER,
    OPERATOR_CLIENT
}
