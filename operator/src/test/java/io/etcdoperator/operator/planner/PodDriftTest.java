package io.etcdoperator.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.reason.RestartReason;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The restart reasons, one judgement each, from the facts the observer reads. */
class PodDriftTest {

    private static final Instant NOW = Instant.parse("2026-11-28T04:00:00Z");
    private static final Optional<Instant> CREATED = Optional.of(NOW.minusSeconds(3600));

    /** A live Pod built from the target, no restart asked, not a seed. */
    private static PodDrift.Facts current() {
        return new PodDrift.Facts(
                true, true, "r1", "r1", "3.5.16", "3.5.16", false, Optional.empty(), CREATED, false, false);
    }

    private static Optional<RestartReason> reason(PodDrift.Facts f) {
        return PodDrift.reason(f, NOW);
    }

    @Test
    void aPodBuiltFromTheTargetStays() {
        assertThat(reason(current())).isEmpty();
    }

    @Test
    void aRevisionApartNamesTheVersionFirstThenTheMaterialThenTheSpec() {
        assertThat(reason(new PodDrift.Facts(
                        true, true, "r2", "r1", "3.5.16", "3.5.30", true, Optional.empty(), CREATED, false, false)))
                .contains(RestartReason.VERSION_CHANGED);
        assertThat(reason(new PodDrift.Facts(
                        true, true, "r2", "r1", "3.5.16", "3.5.16", true, Optional.empty(), CREATED, false, false)))
                .contains(RestartReason.CERTIFICATE_RENEWED);
        assertThat(reason(new PodDrift.Facts(
                        true, true, "r2", "r1", "3.5.16", "3.5.16", false, Optional.empty(), CREATED, false, false)))
                .contains(RestartReason.SPEC_CHANGED);
        assertThat(reason(new PodDrift.Facts(
                        true,
                        false,
                        "r2",
                        "r1",
                        "3.5.16",
                        "3.5.16",
                        true,
                        Optional.empty(),
                        Optional.empty(),
                        false,
                        false)))
                .as("no live Pod runs material to compare")
                .contains(RestartReason.SPEC_CHANGED);
    }

    @Test
    void aMemberWithoutATargetOrStillPendingOrDormantIsNotJudged() {
        assertThat(reason(new PodDrift.Facts(
                        false,
                        true,
                        "",
                        "",
                        "3.5.16",
                        null,
                        true,
                        Optional.of(NOW.minusSeconds(1)),
                        CREATED,
                        false,
                        false)))
                .isEmpty();
    }

    @Test
    void aRestartAskedAfterThePodStartedIsDoneOnceAndNotBeforeItsTime() {
        Optional<Instant> asked = Optional.of(NOW.minusSeconds(60));
        assertThat(reason(new PodDrift.Facts(
                        true, true, "r1", "r1", "3.5.16", "3.5.16", false, asked, CREATED, false, false)))
                .contains(RestartReason.RESTART_REQUESTED);
        assertThat(reason(new PodDrift.Facts(
                        true,
                        true,
                        "r1",
                        "r1",
                        "3.5.16",
                        "3.5.16",
                        false,
                        asked,
                        Optional.of(NOW.minusSeconds(30)),
                        false,
                        false)))
                .as("its Pod already started after the request")
                .isEmpty();
        assertThat(reason(new PodDrift.Facts(
                        true,
                        true,
                        "r1",
                        "r1",
                        "3.5.16",
                        "3.5.16",
                        false,
                        Optional.of(NOW.plusSeconds(60)),
                        CREATED,
                        false,
                        false)))
                .as("a request for later")
                .isEmpty();
    }

    @Test
    void aFormedPvcSeedStillStartingNewRestartsSoAnEmptiedVolumeCannotFormASecondCluster() {
        assertThat(reason(new PodDrift.Facts(
                        true, true, "r1", "r1", "3.5.16", "3.5.16", false, Optional.empty(), CREATED, true, true)))
                .contains(RestartReason.CLUSTER_FORMED);
        assertThat(reason(new PodDrift.Facts(
                        true,
                        false,
                        "r1",
                        "r1",
                        "3.5.16",
                        "3.5.16",
                        false,
                        Optional.empty(),
                        Optional.empty(),
                        true,
                        true)))
                .as("no live Pod")
                .isEmpty();
        assertThat(reason(new PodDrift.Facts(
                        true, true, "r1", "r1", "3.5.16", "3.5.16", false, Optional.empty(), CREATED, false, true)))
                .as("not a formed cluster's PVC seed")
                .isEmpty();
    }
}
