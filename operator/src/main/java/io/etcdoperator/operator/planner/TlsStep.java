package io.etcdoperator.operator.planner;

import java.time.Instant;

/**
 * The TLS part's answer: one write ({@link TlsWrite}, a step of the cluster's pass), or why none is due. Restarting
 * members onto new material is the roller's (the material is part of the Pod revision).
 */
public sealed interface TlsStep permits TlsWrite, TlsStep.RollMember, TlsStep.WaitHealthy, TlsStep.Converged {

    /** This member runs stale material; the roller restarts it. */
    record RollMember(String member) implements TlsStep {}

    /** A member is not healthy; no member is restarted until it is. */
    record WaitHealthy(String member) implements TlsStep {}

    /** Nothing to do until {@code recheckAt}, when the earliest certificate becomes due for renewal. */
    record Converged(Instant recheckAt) implements TlsStep {}
}
