package io.etcdoperator.operator.planner;

import static io.etcdoperator.operator.planner.Observations.cluster;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdClusterSpec;
import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.reason.RestartReason;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The decisions that came from the cluster controller's pass into the planner: the gate, the target, a conflict. */
class ClusterPlannerTargetTest {

    private static final Instant NOW = Instant.parse("2026-11-28T03:00:00Z");
    private static final Optional<Instant> LATER = Optional.of(NOW.plusSeconds(60));
    private static final Optional<Instant> PASSED = Optional.of(NOW.minusSeconds(1));
    private static final List<Refusal> NONE = List.of();
    private static final List<Refusal> REFUSED = List.of(Refusal.invalid("spec.replicas: 4 is even"));

    private final ClusterPlanner planner = new ClusterPlanner();

    private static EtcdClusterSpec spec(int replicas, String version) {
        return TargetLatchTest.spec(replicas, version);
    }

    private static ObservedClusterSpec target(int replicas, String version) {
        return TargetLatch.snapshot(spec(replicas, version));
    }

    private static Observations threeVoters() {
        return cluster().voter("a").voter("b").voter("c").at(NOW);
    }

    /** {@code foreign}: a Service of the cluster's that another object controls. */
    private Step next(EtcdClusterSpec spec, Optional<Instant> deadline, Optional<String> foreign, Observations o) {
        ObservedCluster observed = o.build();
        return planner.next(new ClusterView(
                spec,
                target(3, "3.5.16"),
                deadline,
                NOW,
                NONE,
                objects(observed, foreign),
                Optional.empty(),
                observed));
    }

    /** Both Services and the budget in shape for {@code observed}, but a foreign Service if one is named. */
    static OwnedObjects objects(ObservedCluster observed, Optional<String> foreign) {
        OwnedObjects kept = ClusterWideObjectsTest.kept(observed, 3);
        return foreign.map(name -> kept.with(name, OwnedObjects.Shape.FOREIGN)).orElse(kept);
    }

    @Test
    void aRefusedNameIsRefusedBeforeTheGateAndEvenOnceLatched() {
        List<Refusal> name = List.of(Refusal.invalid("metadata.name: longer than 56 characters"));
        assertThat(planner.admit(new Admission(name, true, false, NONE, Optional.empty())))
                .contains(new Step.RefuseSpec(name));
        assertThat(planner.admit(new Admission(name, false, true, NONE, Optional.empty())))
                .contains(new Step.RefuseSpec(name));
    }

    @Test
    void aMissingCertManagerStopsEverythingElseBeforeAnythingIsObserved() {
        assertThat(planner.admit(new Admission(true, false, REFUSED))).contains(new Step.AwaitCertManager());
        assertThat(planner.admit(new Admission(true, true, NONE))).contains(new Step.AwaitCertManager());
    }

    @Test
    void theFirstSpecIsLatchedOrRefusedAndALatchedOneGoesOnToBeObserved() {
        assertThat(planner.admit(new Admission(false, false, NONE)))
                .contains(new Step.LatchTarget(Reason.INITIAL_SNAPSHOT));
        assertThat(planner.admit(new Admission(false, false, REFUSED))).hasValueSatisfying(step -> {
            assertThat(step).isEqualTo(new Step.RefuseSpec(REFUSED));
            assertThat(step.reason()).isEqualTo(Reason.INVALID_SPEC);
        });
        assertThat(planner.admit(new Admission(false, true, REFUSED))).isEmpty();
    }

    @Test
    void aClusterTakenOverFromCozystackLatchesItsImmutablesOnceItsTargetIsLatched() {
        ObservedClusterSpec target = TargetLatch.snapshot(spec(3, "3.5.16"));
        assertThat(planner.admit(new Admission(List.of(), false, true, NONE, Optional.of(target))))
                .contains(new Step.AdoptImmutables(target));
        assertThat(planner.admit(new Admission(List.of(), true, true, NONE, Optional.of(target))))
                .as("the cert-manager gate comes first")
                .contains(new Step.AwaitCertManager());
    }

    @Test
    void aReachedTargetTakesTheChangedSpec() {
        assertThat(next(spec(5, "3.5.16"), LATER, Optional.empty(), threeVoters()))
                .isEqualTo(new Step.LatchTarget(Reason.SPEC_CHANGED));
    }

    @Test
    void anUnchangedSpecOnAReachedTargetIsTheClustersOwnNextStep() {
        assertThat(next(spec(3, "3.5.16"), LATER, Optional.empty(), threeVoters()))
                .isEqualTo(planner.next(threeVoters().build(), 3))
                .isEqualTo(new Step.Converged(Reason.RECONCILED));
    }

    @Test
    void aPassedDeadlineNamesWhatDidNotFinish() {
        assertThat(next(
                        spec(3, "3.5.16"),
                        PASSED,
                        Optional.empty(),
                        cluster().voter("a").voter("b").at(NOW)))
                .isEqualTo(new Step.DeadlineExceeded(Reason.DEADLINE_EXCEEDED));
        assertThat(next(
                        spec(3, "3.5.16"),
                        PASSED,
                        Optional.empty(),
                        threeVoters().unreadyVoter("d").outdated("a", RestartReason.VERSION_CHANGED)))
                .as("a member still on the old version")
                .isEqualTo(new Step.DeadlineExceeded(Reason.UPGRADE_STALLED));
        assertThat(next(
                        spec(3, "3.5.16"),
                        PASSED,
                        Optional.empty(),
                        cluster().notFormed().at(NOW)))
                .isEqualTo(new Step.DeadlineExceeded(Reason.BOOTSTRAP_FAILED));
    }

    @Test
    void aServiceOwnedByAnotherObjectHoldsEveryStepButANewTarget() {
        Optional<String> conflict = Optional.of("demo-client");
        assertThat(next(spec(3, "3.5.16"), LATER, conflict, cluster().voter("a").at(NOW)))
                .isEqualTo(new Step.ServiceConflict(
                        "Service demo-client exists and is not controlled by this EtcdCluster; rename or delete it"));
        assertThat(next(spec(5, "3.5.16"), LATER, conflict, threeVoters()))
                .isEqualTo(new Step.LatchTarget(Reason.SPEC_CHANGED));
    }

    @Test
    void aRefusedChangeIsNeverLatched() {
        Step step = planner.next(new ClusterView(
                spec(5, "3.5.16"),
                target(3, "3.5.16"),
                LATER,
                NOW,
                REFUSED,
                objects(threeVoters().build(), Optional.empty()),
                Optional.empty(),
                threeVoters().build()));
        assertThat(step).isEqualTo(new Step.Converged(Reason.RECONCILED));
    }
}
