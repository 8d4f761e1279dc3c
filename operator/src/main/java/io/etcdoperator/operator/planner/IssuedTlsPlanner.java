package io.etcdoperator.operator.planner;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The cluster planner's part for operator-issued TLS: observations in, one step out. The order is what keeps quorum
 * and clients working: members trust a new CA before any of them presents a leaf from it, only one member restarts
 * at a time and only while every other member is healthy, and the old CA is dropped only once nothing uses it.
 * See docs/tls.md#rotation.
 */
public final class IssuedTlsPlanner {

    /** The next look while a member runs stale material or is unhealthy. */
    static final Duration SOON = Duration.ofSeconds(5);

    private IssuedTlsPlanner() {}

    /** The write the cluster's pass makes for TLS: a Secret, else the stamp of a member lacking the current material. */
    static Optional<TlsWrite> write(IssuedTls observed, Instant now) {
        if (next(observed, now) instanceof TlsWrite write) {
            return Optional.of(write);
        }
        MemberMaterial desired = observed.desired().orElseThrow(); // every leaf exists once no Secret is written
        return observed.members().stream()
                .filter(m -> !m.stamped().equals(Optional.of(desired)))
                .min(Comparator.comparing(ObservedTlsMember::name))
                .map(m -> new TlsWrite.StampMaterial(m.name(), desired));
    }

    /** When TLS wants the cluster looked at again: at the next renewal, or soon while members are to move. */
    public static Duration recheck(IssuedTls observed, Instant now) {
        if (next(observed, now) instanceof TlsStep.Converged converged) {
            Duration until = Duration.between(now, converged.recheckAt());
            return until.isNegative() ? SOON : until;
        }
        return SOON;
    }

    public static TlsStep next(IssuedTls observed, Instant now) {
        if (observed.ca().isEmpty()) {
            return new TlsWrite.CreateCa();
        }
        ObservedCa ca = observed.ca().get();
        String signer = ca.signer().fingerprint();
        for (LeafRole role : LeafRole.values()) {
            ObservedLeaf leaf = observed.leaves().get(role);
            if (leaf == null) {
                return new TlsWrite.IssueLeaf(role);
            }
            if (!leaf.trusted().equals(ca.trusted())) {
                return new TlsWrite.SyncTrust(role);
            }
        }
        // New leaves only once every member trusts their CA, and not mid-restart: the restarted member would be
        // stale again at once and restart twice.
        boolean everyMemberReady = observed.members().stream()
                .allMatch(m ->
                        m.healthy() && m.running().map(r -> r.trusts(signer)).orElse(false));
        if (everyMemberReady) {
            Optional<TlsStep> renewal = renewal(observed, signer, now);
            if (renewal.isPresent()) {
                return renewal.get();
            }
        }
        Optional<TlsStep> roll = roll(observed.members(), observed.desired().orElseThrow());
        if (roll.isPresent()) {
            return roll.get();
        }
        Optional<ObservedTlsMember> unhealthy = observed.members().stream()
                .filter(m -> !m.healthy())
                .min(Comparator.comparing(ObservedTlsMember::name));
        if (unhealthy.isPresent()) {
            return new TlsStep.WaitHealthy(unhealthy.get().name());
        }
        if (ca.rotating() && leavesFrom(observed, signer)) {
            return new TlsWrite.RetireOldCa();
        }
        if (!ca.rotating() && ca.signer().renewalDue(now)) {
            return new TlsWrite.StartCaRotation();
        }
        Instant recheck = earliestRenewal(observed, ca);
        Optional<Instant> requested = observed.renewalRequested().filter(at -> at.isAfter(now) && at.isBefore(recheck));
        return new TlsStep.Converged(requested.orElse(recheck));
    }

    /** Leaves from an older CA first (a rotation in progress), then leaves running out of time. */
    private static Optional<TlsStep> renewal(IssuedTls observed, String signer, Instant now) {
        for (LeafRole role : LeafRole.values()) {
            if (!observed.leaves().get(role).certificate().issuerFingerprint().equals(signer)) {
                return Optional.of(new TlsWrite.RenewLeaf(role, TlsWrite.RenewLeaf.Why.SIGNER_CHANGED));
            }
        }
        for (LeafRole role : LeafRole.values()) {
            if (observed.leaves().get(role).certificate().renewalDue(now)) {
                return Optional.of(new TlsWrite.RenewLeaf(role, TlsWrite.RenewLeaf.Why.EXPIRING));
            }
        }
        // certificates hold whole seconds: a leaf issued in the request's second serves it (else it renews forever)
        Optional<Instant> requested = observed.renewalRequested()
                .filter(at -> !at.isAfter(now))
                .map(at -> at.truncatedTo(ChronoUnit.SECONDS));
        for (LeafRole role : LeafRole.values()) {
            if (requested.isPresent()
                    && issuedAt(observed.leaves().get(role).certificate()).isBefore(requested.get())) {
                return Optional.of(new TlsWrite.RenewLeaf(role, TlsWrite.RenewLeaf.Why.REQUESTED));
            }
        }
        return Optional.empty();
    }

    /** Leaves are backdated by the writer; a leaf renewed on request must not look older than the request. */
    static Instant issuedAt(ObservedCertificate leaf) {
        return leaf.notBefore().plus(ObservedCertificate.BACKDATE);
    }

    /**
     * A stale member that is down anyway restarts first (restarting it costs no quorum); a healthy stale member
     * restarts only when every member is healthy. Members are taken by name, so passes agree on the order.
     */
    private static Optional<TlsStep> roll(List<ObservedTlsMember> members, MemberMaterial desired) {
        List<ObservedTlsMember> byName = members.stream()
                .sorted(Comparator.comparing(ObservedTlsMember::name))
                .toList();
        List<ObservedTlsMember> stale = byName.stream()
                .filter(m -> !m.running().equals(Optional.of(desired)))
                .toList();
        if (stale.isEmpty()) {
            return Optional.empty();
        }
        Optional<ObservedTlsMember> staleAndDown =
                stale.stream().filter(m -> !m.healthy()).findFirst();
        if (staleAndDown.isPresent()) {
            return Optional.of(new TlsStep.RollMember(staleAndDown.get().name()));
        }
        Optional<ObservedTlsMember> unhealthy =
                byName.stream().filter(m -> !m.healthy()).findFirst();
        if (unhealthy.isPresent()) {
            return Optional.of(new TlsStep.WaitHealthy(unhealthy.get().name()));
        }
        return Optional.of(new TlsStep.RollMember(stale.getFirst().name()));
    }

    private static boolean leavesFrom(IssuedTls observed, String signer) {
        return observed.leaves().values().stream()
                .allMatch(l -> l.certificate().issuerFingerprint().equals(signer));
    }

    private static Instant earliestRenewal(IssuedTls observed, ObservedCa ca) {
        return Stream.concat(
                        Stream.of(ca.signer()),
                        observed.leaves().values().stream().map(ObservedLeaf::certificate))
                .map(ObservedCertificate::renewAfter)
                .min(Comparator.naturalOrder())
                .orElseThrow();
    }
}
