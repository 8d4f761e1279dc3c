package io.etcdoperator.operator.planner;

import static io.etcdoperator.operator.planner.Observations.cluster;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.planner.OwnedObjects.Budget;
import io.etcdoperator.operator.planner.OwnedObjects.CertificateShape;
import io.etcdoperator.operator.planner.OwnedObjects.ServiceShape;
import io.etcdoperator.operator.planner.OwnedObjects.Shape;
import io.etcdoperator.operator.reason.Reason;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Services and the voter PodDisruptionBudget: what the planner writes first, and what it never writes. */
class ClusterWideObjectsTest {

    private static final Instant NOW = Instant.parse("2026-12-02T05:00:00Z");
    private static final Optional<Instant> LATER = Optional.of(NOW.plusSeconds(60));

    private final ClusterPlanner planner = new ClusterPlanner();

    /** Both Services in shape and the budget a majority of max(voters, target), as a settled pass reads them. */
    static OwnedObjects kept(ObservedCluster observed, int target) {
        Budget budget = observed.voterCount() == 0
                ? Budget.ABSENT
                : Budget.ours(Quorum.minAvailable(observed.voterCount(), target));
        return new OwnedObjects(services(Shape.IN_SHAPE, Shape.IN_SHAPE), budget);
    }

    private static List<ServiceShape> services(Shape headless, Shape client) {
        return List.of(new ServiceShape("demo", headless), new ServiceShape("demo-client", client));
    }

    private Step next(OwnedObjects objects, ObservedCluster observed, Optional<Instant> deadline) {
        return next(objects, observed, deadline, Optional.empty());
    }

    private Step next(
            OwnedObjects objects, ObservedCluster observed, Optional<Instant> deadline, Optional<IssuedTls> tls) {
        var spec = TargetLatchTest.spec(3, "3.5.16");
        return planner.next(
                new ClusterView(spec, TargetLatch.snapshot(spec), deadline, NOW, List.of(), objects, tls, observed));
    }

    /** An absent Certificate is created after the Services and before the budget; a foreign one is never written. */
    @Test
    void certManagerCertificatesAreCreatedAfterTheServicesAndNeverWhenForeign() {
        ObservedCluster observed = threeVoters();
        OwnedObjects kept = kept(observed, 3);
        List<CertificateShape> certificates = List.of(
                new CertificateShape("demo-server", Shape.IN_SHAPE),
                new CertificateShape("demo-peer", Shape.FOREIGN),
                new CertificateShape("demo-client", Shape.ABSENT));
        OwnedObjects withCertificates = new OwnedObjects(kept.services(), Budget.ABSENT, certificates);
        assertThat(next(withCertificates, observed, LATER)).isEqualTo(new ObjectSteps.CreateCertificate("demo-client"));
        assertThat(next(withCertificates.with("demo", Shape.ABSENT), observed, LATER))
                .isEqualTo(new ObjectSteps.WriteService("demo", true));
        OwnedObjects created = withCertificates.withCertificate("demo-client", Shape.IN_SHAPE);
        assertThat(next(created, observed, LATER))
                .as("then the budget; the predecessor's Certificate is looked for again, not written")
                .isEqualTo(new ObjectSteps.WriteBudget(2, true));
    }

    /** Members find their peers through the Services and start from the material: Services, then TLS, then the rest. */
    @Test
    void operatorIssuedMaterialIsWrittenAfterTheServicesAndBeforeTheClustersOwnStep() {
        ObservedCluster fresh = cluster().notFormed().at(NOW).build();
        Optional<IssuedTls> noCa = Optional.of(new IssuedTls(Optional.empty(), Map.of(), List.of()));
        OwnedObjects absent = new OwnedObjects(services(Shape.ABSENT, Shape.ABSENT), Budget.ABSENT);
        assertThat(next(absent, fresh, LATER, noCa)).isEqualTo(new ObjectSteps.WriteService("demo", true));
        assertThat(next(kept(fresh, 3), fresh, LATER, noCa)).isEqualTo(new TlsWrite.CreateCa());
        assertThat(next(kept(fresh, 3), fresh, Optional.of(NOW.minusSeconds(1)), noCa))
                .as("even once the deadline has passed")
                .isEqualTo(new TlsWrite.CreateCa());
        assertThat(next(kept(fresh, 3), fresh, LATER, Optional.empty())).isEqualTo(new Step.CreateSeed());
    }

    private static ObservedCluster threeVoters() {
        return cluster().voter("a").voter("b").voter("c").at(NOW).build();
    }

    @Test
    void aNewClustersServicesAreWrittenHeadlessFirstAndTheSamePassGoesOnToTheSeed() {
        ObservedCluster empty = cluster().notFormed().at(NOW).build();
        OwnedObjects none = new OwnedObjects(services(Shape.ABSENT, Shape.ABSENT), Budget.ABSENT);
        assertThat(next(none, empty, LATER)).isEqualTo(new ObjectSteps.WriteService("demo", true));
        OwnedObjects headless = none.with("demo", Shape.IN_SHAPE);
        assertThat(next(headless, empty, LATER)).isEqualTo(new ObjectSteps.WriteService("demo-client", true));
        assertThat(next(headless.with("demo-client", Shape.IN_SHAPE), empty, LATER))
                .as("no budget before a cluster id, and the seed in the same pass")
                .isEqualTo(planner.next(empty, 3))
                .isNotInstanceOf(Step.Shaping.class);
    }

    @Test
    void aDriftedServiceIsPatchedBackBeforeAnyOtherStep() {
        OwnedObjects drifted = kept(threeVoters(), 3).with("demo-client", Shape.DRIFTED);
        assertThat(next(drifted, threeVoters(), LATER)).isEqualTo(new ObjectSteps.WriteService("demo-client", false));
    }

    @Test
    void aForeignServiceIsNeverWrittenAndHoldsTheClusterEvenWithTheOtherOneMissing() {
        ObservedCluster empty = cluster().notFormed().at(NOW).build();
        OwnedObjects foreign = new OwnedObjects(services(Shape.FOREIGN, Shape.ABSENT), Budget.ABSENT);
        assertThat(next(foreign, empty, LATER))
                .isEqualTo(new Step.ServiceConflict(
                        "Service demo exists and is not controlled by this EtcdCluster; rename or delete it"));
        assertThat(next(foreign, empty, LATER).reason()).isEqualTo(Reason.RESOURCE_CONFLICT);
    }

    /** A majority of the larger of the live voters and the target, so a drain during scaling never takes quorum. */
    @ParameterizedTest(name = "{0} voters, target {1} -> minAvailable {2}")
    @CsvSource({
        "1, 1, 1", "3, 3, 2", "4, 4, 3", "5, 5, 3", "7, 7, 4", "1, 3, 2", "2, 3, 2", "3, 5, 3", "5, 7, 4", "5, 3, 3",
        "4, 3, 3", "3, 1, 2"
    })
    void theBudgetIsCreatedForAMajorityOfVotersOrTarget(int voters, int target, int minAvailable) {
        Observations o = cluster();
        for (int i = 0; i < voters; i++) {
            o.voter("m" + i);
        }
        ObservedCluster observed = o.at(NOW).build();
        OwnedObjects absent = new OwnedObjects(services(Shape.IN_SHAPE, Shape.IN_SHAPE), Budget.ABSENT);
        assertThat(ClusterWideObjects.next(absent, observed, target))
                .contains(new ObjectSteps.WriteBudget(minAvailable, true));
        assertThat(ClusterWideObjects.next(kept(observed, target), observed, target))
                .as("kept as it is")
                .isEmpty();
    }

    @Test
    void aBudgetChangedByHandIsSetBackAndOneWithoutVotersGoes() {
        ObservedCluster three = threeVoters();
        OwnedObjects kept = kept(three, 3);
        assertThat(next(kept.with(Budget.ours(1)), three, LATER)).isEqualTo(new ObjectSteps.WriteBudget(2, false));
        assertThat(next(kept.with(new Budget(Shape.IN_SHAPE, Optional.of(2), true)), three, LATER))
                .as("maxUnavailable set beside it")
                .isEqualTo(new ObjectSteps.WriteBudget(2, false));
        assertThat(next(kept.with(new Budget(Shape.IN_SHAPE, Optional.empty(), false)), three, LATER))
                .as("a percentage")
                .isEqualTo(new ObjectSteps.WriteBudget(2, false));
        ObservedCluster none = cluster().at(NOW).build();
        assertThat(ClusterWideObjects.next(kept.with(Budget.ours(2)), none, 3))
                .contains(new ObjectSteps.DeleteBudget());
        assertThat(ClusterWideObjects.next(kept.with(Budget.ABSENT), none, 3)).isEmpty();
    }

    @Test
    void aForeignBudgetIsNeverWrittenAndHoldsNothing() {
        ObservedCluster three = threeVoters();
        OwnedObjects foreign = kept(three, 3).with(new Budget(Shape.FOREIGN, Optional.empty(), false));
        assertThat(next(foreign, three, LATER)).isEqualTo(new Step.Converged(Reason.RECONCILED));
    }

    @Test
    void theBudgetIsKeptEvenWhileTheDeadlineHasPassed() {
        ObservedCluster two = cluster().voter("a").voter("b").at(NOW).build();
        OwnedObjects stale = kept(two, 3).with(Budget.ours(3));
        Optional<Instant> passed = Optional.of(NOW.minusSeconds(1));
        assertThat(next(stale, two, passed)).isEqualTo(new ObjectSteps.WriteBudget(2, false));
        assertThat(next(stale.with(Budget.ours(2)), two, passed))
                .isEqualTo(new Step.DeadlineExceeded(Reason.DEADLINE_EXCEEDED));
    }
}
