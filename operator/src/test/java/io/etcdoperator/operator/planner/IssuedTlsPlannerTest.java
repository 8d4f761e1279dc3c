package io.etcdoperator.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.planner.TlsWrite.RenewLeaf.Why;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Table tests: one observation, one expected step. Fingerprints are short names ("ca1", "srv1") for reading. */
class IssuedTlsPlannerTest {

    private static final Instant ISSUED = Instant.parse("2025-01-01T00:00:00Z");
    private static final Instant NOW = ISSUED.plus(Duration.ofDays(1));
    private static final ObservedCertificate CA1 = cert("ca1", "ca1", Duration.ofDays(1825));
    private static final ObservedCertificate CA2 = cert("ca2", "ca2", Duration.ofDays(1825));
    /** Five years, of which less than a third (325 days) remains. */
    private static final ObservedCertificate CA1_DUE = new ObservedCertificate(
            "ca1", "ca1", ISSUED.minus(Duration.ofDays(1500)), ISSUED.plus(Duration.ofDays(325)));

    /** A readable builder for one observation. */
    private static final class World {
        ObservedCa ca = new ObservedCa(CA1, List.of("ca1"));
        final Map<LeafRole, ObservedLeaf> leaves = new EnumMap<>(LeafRole.class);
        final List<ObservedTlsMember> members = new ArrayList<>();
        Optional<Instant> renewalRequested = Optional.empty();

        World() {
            leaves.put(LeafRole.SERVER, leaf("srv1", "ca1", Duration.ofDays(90), "ca1"));
            leaves.put(LeafRole.PEER, leaf("peer1", "ca1", Duration.ofDays(90), "ca1"));
            leaves.put(LeafRole.OPERATOR_CLIENT, leaf("op1", "ca1", Duration.ofDays(90), "ca1"));
        }

        World members(String... names) {
            for (String name : names) {
                members.add(new ObservedTlsMember(name, Optional.of(running("srv1", "peer1", "ca1")), true));
            }
            return this;
        }

        World member(String name, MemberMaterial material, boolean healthy) {
            members.removeIf(m -> m.name().equals(name));
            members.add(new ObservedTlsMember(name, Optional.ofNullable(material), healthy));
            return this;
        }

        World stamped(String name, MemberMaterial stamp) {
            ObservedTlsMember was = members.stream()
                    .filter(m -> m.name().equals(name))
                    .findFirst()
                    .orElseThrow();
            members.replaceAll(m -> m == was
                    ? new ObservedTlsMember(name, was.running(), was.healthy(), Optional.ofNullable(stamp))
                    : m);
            return this;
        }

        World withLeaf(LeafRole role, ObservedLeaf leaf) {
            leaves.put(role, leaf);
            return this;
        }

        World ca(ObservedCa next) {
            ca = next;
            return this;
        }

        World renewalRequested(Instant at) {
            renewalRequested = Optional.of(at);
            return this;
        }

        IssuedTls observed() {
            return new IssuedTls(Optional.ofNullable(ca), leaves, members, renewalRequested);
        }
    }

    static Stream<Arguments> table() {
        return Stream.of(
                Arguments.of("no CA Secret yet", new World().ca(null), new TlsWrite.CreateCa()),
                Arguments.of("CA but no peer leaf", withoutLeaf(LeafRole.PEER), new TlsWrite.IssueLeaf(LeafRole.PEER)),
                Arguments.of(
                        "all converged: recheck when the first leaf is due (60 of 90 days)",
                        new World().members("m0", "m1", "m2"),
                        new TlsStep.Converged(ISSUED.plus(Duration.ofDays(60)))),
                Arguments.of(
                        "leaf due: renewed while every member trusts its CA",
                        new World()
                                .members("m0", "m1", "m2")
                                .withLeaf(LeafRole.SERVER, leaf("srv1", "ca1", Duration.ofDays(1), "ca1")),
                        new TlsWrite.RenewLeaf(LeafRole.SERVER, Why.EXPIRING)),
                Arguments.of(
                        "renewal requested (annotation) after the leaves were issued: server leaf first",
                        new World().members("m0", "m1", "m2").renewalRequested(NOW.minus(Duration.ofHours(1))),
                        new TlsWrite.RenewLeaf(LeafRole.SERVER, Why.REQUESTED)),
                Arguments.of(
                        "renewal requested before the leaves were issued (already done): converged",
                        new World().members("m0", "m1", "m2").renewalRequested(ISSUED),
                        new TlsStep.Converged(ISSUED.plus(Duration.ofDays(60)))),
                Arguments.of(
                        "renewal requested within the second the leaves were issued (ms given): served, converged",
                        new World()
                                .members("m0", "m1", "m2")
                                .renewalRequested(ISSUED.plus(ObservedCertificate.BACKDATE)
                                        .plusMillis(500)),
                        new TlsStep.Converged(ISSUED.plus(Duration.ofDays(60)))),
                Arguments.of(
                        "renewal requested for later: converged, recheck at that time",
                        new World().members("m0", "m1", "m2").renewalRequested(NOW.plus(Duration.ofHours(1))),
                        new TlsStep.Converged(NOW.plus(Duration.ofHours(1)))),
                Arguments.of(
                        "renewal requested but a member is down: wait, never renew mid-outage",
                        new World()
                                .members("m0", "m1", "m2")
                                .member("m1", running("srv1", "peer1", "ca1"), false)
                                .renewalRequested(NOW.minus(Duration.ofHours(1))),
                        new TlsStep.WaitHealthy("m1")),
                Arguments.of(
                        "new server leaf: first member by name rolls",
                        new World()
                                .members("m0", "m1", "m2")
                                .withLeaf(LeafRole.SERVER, leaf("srv2", "ca1", Duration.ofDays(90), "ca1")),
                        new TlsStep.RollMember("m0")),
                Arguments.of(
                        "rolling: the restarted member is not healthy yet, so nobody else restarts",
                        new World()
                                .members("m1", "m2")
                                .member("m0", running("srv2", "peer1", "ca1"), false)
                                .withLeaf(LeafRole.SERVER, leaf("srv2", "ca1", Duration.ofDays(90), "ca1")),
                        new TlsStep.WaitHealthy("m0")),
                Arguments.of(
                        "rolling: m0 healthy on the new material, m1 next",
                        new World()
                                .members("m1", "m2")
                                .member("m0", running("srv2", "peer1", "ca1"), true)
                                .withLeaf(LeafRole.SERVER, leaf("srv2", "ca1", Duration.ofDays(90), "ca1")),
                        new TlsStep.RollMember("m1")),
                Arguments.of(
                        "a stale member that is down anyway restarts before waiting on it",
                        new World()
                                .members("m0", "m1")
                                .member("m2", running("srv1", "peer1", "ca1"), false)
                                .withLeaf(LeafRole.SERVER, leaf("srv2", "ca1", Duration.ofDays(90), "ca1")),
                        new TlsStep.RollMember("m2")),
                Arguments.of(
                        "an unrelated unhealthy member blocks a roll of healthy members",
                        new World()
                                .members("m0", "m2")
                                .member("m1", running("srv2", "peer1", "ca1"), false)
                                .withLeaf(LeafRole.SERVER, leaf("srv2", "ca1", Duration.ofDays(90), "ca1")),
                        new TlsStep.WaitHealthy("m1")),
                Arguments.of(
                        "a Pod without material annotations is stale",
                        new World().members("m0", "m1").member("m2", null, true),
                        new TlsStep.RollMember("m2")),
                Arguments.of(
                        "CA due (a third of 5 years left) and everything converged: start the rotation",
                        new World().members("m0", "m1", "m2").ca(new ObservedCa(CA1_DUE, List.of("ca1"))),
                        new TlsWrite.StartCaRotation()),
                Arguments.of(
                        "rotation A: leaf Secrets get the old+new bundle first",
                        new World().members("m0", "m1", "m2").ca(new ObservedCa(CA2, List.of("ca1", "ca2"))),
                        new TlsWrite.SyncTrust(LeafRole.SERVER)),
                Arguments.of(
                        "rotation A: members roll to trust both before any new leaf exists",
                        rotationBundleDistributed().members("m0", "m1", "m2"),
                        new TlsStep.RollMember("m0")),
                Arguments.of(
                        "rotation A: no new-CA leaf while one member still trusts only the old CA",
                        rotationBundleDistributed()
                                .member("m0", running("srv1", "peer1", "ca1", "ca2"), true)
                                .member("m1", running("srv1", "peer1", "ca1", "ca2"), true)
                                .member("m2", running("srv1", "peer1", "ca1"), true),
                        new TlsStep.RollMember("m2")),
                Arguments.of(
                        "rotation B: every member trusts the new CA, leaves are reissued from it",
                        rotationBundleDistributed()
                                .member("m0", running("srv1", "peer1", "ca1", "ca2"), true)
                                .member("m1", running("srv1", "peer1", "ca1", "ca2"), true)
                                .member("m2", running("srv1", "peer1", "ca1", "ca2"), true),
                        new TlsWrite.RenewLeaf(LeafRole.SERVER, Why.SIGNER_CHANGED)),
                Arguments.of(
                        "rotation B: all leaves new, members roll onto them",
                        rotationLeavesReissued()
                                .member("m0", running("srv1", "peer1", "ca1", "ca2"), true)
                                .member("m1", running("srv1", "peer1", "ca1", "ca2"), true)
                                .member("m2", running("srv1", "peer1", "ca1", "ca2"), true),
                        new TlsStep.RollMember("m0")),
                Arguments.of(
                        "rotation C: everything runs new leaves, the old CA is retired",
                        rotationLeavesReissued()
                                .member("m0", running("srv2", "peer2", "ca1", "ca2"), true)
                                .member("m1", running("srv2", "peer2", "ca1", "ca2"), true)
                                .member("m2", running("srv2", "peer2", "ca1", "ca2"), true),
                        new TlsWrite.RetireOldCa()),
                Arguments.of(
                        "no members yet (before bootstrap): Secrets are enough",
                        new World(),
                        new TlsStep.Converged(ISSUED.plus(Duration.ofDays(60)))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void nextStep(String situation, World world, TlsStep expected) {
        assertThat(IssuedTlsPlanner.next(world.observed(), NOW)).isEqualTo(expected);
    }

    @Test
    void aFullCaRotationRollsEachMemberThreeTimesOneAtATimeAndIssuesNewLeavesOnlyOnceAllTrustTheNewCa() {
        // Simulates the executor: each step changes the world the way the real write would.
        Sim sim = new Sim();
        List<TlsStep> steps = new ArrayList<>();
        for (int pass = 0; pass < 40; pass++) {
            TlsStep step = IssuedTlsPlanner.next(sim.observed(), NOW);
            if (step instanceof TlsStep.Converged && sim.rotated) {
                break;
            }
            steps.add(step);
            sim.apply(step);
        }
        assertThat(steps).startsWith(new TlsWrite.StartCaRotation(), new TlsWrite.SyncTrust(LeafRole.SERVER));
        assertThat(steps).filteredOn(TlsStep.RollMember.class::isInstance).hasSize(9); // three rolls of three members
        assertThat(steps).filteredOn(TlsStep.WaitHealthy.class::isInstance).hasSize(9);
        assertThat(steps).contains(new TlsWrite.RetireOldCa());
        int firstNewLeaf = steps.indexOf(new TlsWrite.RenewLeaf(LeafRole.SERVER, Why.SIGNER_CHANGED));
        int lastRollOntoBundle = steps.subList(0, firstNewLeaf).lastIndexOf(new TlsStep.RollMember("m2"));
        assertThat(lastRollOntoBundle)
                .as("every member trusts the new CA before a leaf is issued from it")
                .isPositive()
                .isLessThan(firstNewLeaf);
        assertThat(sim.maxDownAtOnce).isEqualTo(1);
        assertThat(sim.observed().ca().orElseThrow().trusted()).containsExactly("ca2");
    }

    /** A three-member cluster whose CA is due, and an executor that applies steps to it. */
    private static final class Sim {
        ObservedCa ca = new ObservedCa(CA1_DUE, List.of("ca1"));
        final Map<LeafRole, ObservedLeaf> leaves = new EnumMap<>(LeafRole.class);
        final Map<String, MemberMaterial> running = new TreeMap<>();
        final Set<String> down = new HashSet<>();
        int generation;
        int maxDownAtOnce;
        boolean rotated;

        Sim() {
            for (LeafRole role : LeafRole.values()) {
                leaves.put(role, leaf(role + "-0", "ca1", Duration.ofDays(90), "ca1"));
            }
            for (String m : List.of("m0", "m1", "m2")) {
                running.put(m, desired());
            }
        }

        IssuedTls observed() {
            List<ObservedTlsMember> members = running.entrySet().stream()
                    .map(e -> new ObservedTlsMember(e.getKey(), Optional.of(e.getValue()), !down.contains(e.getKey())))
                    .toList();
            return new IssuedTls(Optional.of(ca), leaves, members);
        }

        void apply(TlsStep step) {
            switch (step) {
                case TlsWrite.StartCaRotation s -> ca = new ObservedCa(CA2, List.of("ca1", "ca2"));
                case TlsWrite.SyncTrust s ->
                    leaves.put(s.role(), new ObservedLeaf(leaves.get(s.role()).certificate(), ca.trusted()));
                case TlsWrite.RenewLeaf s ->
                    leaves.put(
                            s.role(),
                            leaf(
                                    s.role() + "-" + ++generation,
                                    ca.signer().fingerprint(),
                                    Duration.ofDays(90),
                                    ca.trusted().toArray(String[]::new)));
                case TlsStep.RollMember s -> {
                    running.put(s.member(), desired());
                    down.add(s.member());
                    maxDownAtOnce = Math.max(maxDownAtOnce, down.size());
                }
                case TlsStep.WaitHealthy s -> down.remove(s.member());
                case TlsWrite.RetireOldCa s -> {
                    ca = new ObservedCa(ca.signer(), List.of(ca.signer().fingerprint()));
                    rotated = true;
                }
                case TlsWrite.CreateCa s -> throw new AssertionError("CA exists");
                case TlsWrite.IssueLeaf s -> throw new AssertionError("leaves exist");
                case TlsWrite.StampMaterial s -> throw new AssertionError("next() never stamps; write() does");
                case TlsStep.Converged s -> down.clear();
            }
        }

        MemberMaterial desired() {
            return new MemberMaterial(
                    leaves.get(LeafRole.SERVER).certificate().fingerprint(),
                    leaves.get(LeafRole.PEER).certificate().fingerprint(),
                    ca.trusted());
        }
    }

    private static World withoutLeaf(LeafRole role) {
        World world = new World();
        world.leaves.remove(role);
        return world;
    }

    private static World rotationBundleDistributed() {
        World world = new World().ca(new ObservedCa(CA2, List.of("ca1", "ca2")));
        for (LeafRole role : LeafRole.values()) {
            world.withLeaf(role, new ObservedLeaf(world.leaves.get(role).certificate(), List.of("ca1", "ca2")));
        }
        return world;
    }

    private static World rotationLeavesReissued() {
        return new World()
                .ca(new ObservedCa(CA2, List.of("ca1", "ca2")))
                .withLeaf(LeafRole.SERVER, leaf("srv2", "ca2", Duration.ofDays(90), "ca1", "ca2"))
                .withLeaf(LeafRole.PEER, leaf("peer2", "ca2", Duration.ofDays(90), "ca1", "ca2"))
                .withLeaf(LeafRole.OPERATOR_CLIENT, leaf("op2", "ca2", Duration.ofDays(90), "ca1", "ca2"));
    }

    /** The pass's write: a due Secret before any stamp, then the first member by name whose stamp is not current. */
    @Test
    void theCurrentMaterialIsStampedOnEachMemberOnceNoSecretIsDue() {
        MemberMaterial current = running("srv1", "peer1", "ca1");
        assertThat(IssuedTlsPlanner.write(new World().members("m0", "m1").observed(), NOW))
                .as("every member stamped with what the Secrets hold")
                .isEmpty();
        World unstamped =
                new World().members("m0", "m1", "m2").stamped("m2", null).stamped("m1", null);
        assertThat(IssuedTlsPlanner.write(unstamped.observed(), NOW))
                .contains(new TlsWrite.StampMaterial("m1", current));
        World stale = new World().members("m0").stamped("m0", running("srv0", "peer1", "ca1"));
        assertThat(IssuedTlsPlanner.write(stale.observed(), NOW))
                .as("a stamp of older material is replaced")
                .contains(new TlsWrite.StampMaterial("m0", current));
        assertThat(IssuedTlsPlanner.write(
                        withoutLeaf(LeafRole.PEER)
                                .members("m0")
                                .stamped("m0", null)
                                .observed(),
                        NOW))
                .as("the missing leaf first: a stamp names both leaves")
                .contains(new TlsWrite.IssueLeaf(LeafRole.PEER));
    }

    /** The next look TLS asks for: the earliest renewal when settled, 5 s while members move or wait. */
    @Test
    void theRecheckIsTheNextRenewalOrSoonWhileMembersMove() {
        assertThat(IssuedTlsPlanner.recheck(new World().members("m0").observed(), NOW))
                .isEqualTo(Duration.ofDays(59)); // the leaves' renewal at 60 days, one day in
        assertThat(IssuedTlsPlanner.recheck(
                        new World()
                                .member("m0", running("srv0", "peer1", "ca1"), true)
                                .observed(),
                        NOW))
                .as("a member runs stale material")
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(IssuedTlsPlanner.recheck(new World().members("m0").observed(), ISSUED.plus(Duration.ofDays(89))))
                .as("a renewal is due")
                .isEqualTo(Duration.ofSeconds(5));
    }

    /** What the cluster's certificate gauges read: the first renewal and the first expiry over the CA and leaves. */
    @Test
    void theEarliestRenewalAndExpiryAreOverTheCaAndEveryLeaf() {
        IssuedTls observed = new World()
                .withLeaf(LeafRole.PEER, leaf("peer2", "ca1", Duration.ofDays(30), "ca1"))
                .observed();
        assertThat(observed.earliestExpiry()).contains(ISSUED.plus(Duration.ofDays(30)));
        assertThat(observed.earliestRenewal()).contains(ISSUED.plus(Duration.ofDays(20)));
        assertThat(new World()
                        .ca(new ObservedCa(CA1_DUE, List.of("ca1")))
                        .observed()
                        .earliestExpiry())
                .contains(ISSUED.plus(Duration.ofDays(90)));
        assertThat(new IssuedTls(Optional.empty(), Map.of(), List.of()).earliestRenewal())
                .isEmpty();
    }

    private static MemberMaterial running(String server, String peer, String... trusted) {
        return new MemberMaterial(server, peer, List.of(trusted));
    }

    private static ObservedLeaf leaf(String fingerprint, String issuer, Duration lifetime, String... trusted) {
        return new ObservedLeaf(cert(fingerprint, issuer, lifetime), List.of(trusted));
    }

    private static ObservedCertificate cert(String fingerprint, String issuer, Duration lifetime) {
        return new ObservedCertificate(fingerprint, issuer, ISSUED, ISSUED.plus(lifetime));
    }
}
