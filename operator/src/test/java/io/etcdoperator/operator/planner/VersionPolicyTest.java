package io.etcdoperator.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.reason.Reason;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VersionPolicyTest {

    @ParameterizedTest(name = "{0} -> {1} (auth {2}): {3}")
    @CsvSource({
        "3.5.16, 3.5.30, false, allowed",
        "3.5.30, 3.5.16, false, allowed",
        "3.4.23, 3.4.30, false, allowed",
        "3.4.23, 3.5.16, false, allowed",
        "3.4.23, 3.5.16, true, UnsupportedUpgrade",
        "3.5.16, 3.4.23, false, UnsupportedUpgrade",
        "3.4.23, 3.6.14, false, UnsupportedUpgrade",
        "3.5.30, 3.6.14, false, UnsupportedUpgrade",
        "3.5.32, 3.6.14, false, allowed",
        "3.5.33, 3.6.14, true, allowed",
        "3.6.10, 3.7.1, false, UnsupportedUpgrade",
        "3.6.11, 3.7.1, false, allowed",
        "3.5.16, 4.0.0, false, UnsupportedVersion",
        "3.5.16, 3.3.27, false, UnsupportedVersion",
        "3.5.16, 3.8.0, false, UnsupportedVersion",
    })
    void upgradePaths(String running, String target, boolean auth, String verdict) {
        Optional<Refusal> refusal = VersionPolicy.checkChange(running, target, auth);
        assertThat(refusal.map(r -> r.reason().reason()).orElse("allowed")).isEqualTo(verdict);
    }

    @ParameterizedTest
    @CsvSource({"3.4.23", "3.5.16", "3.5.30", "3.6.14", "3.7.1"})
    void theMinorLinesTheOperatorRendersFlagsForAreRunnable(String version) {
        assertThat(VersionPolicy.checkRunnable(version)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"3.3.27", "2.3.8", "3.8.0"})
    void otherLinesAreRefusedBeforeAnythingIsCreated(String version) {
        assertThat(VersionPolicy.checkRunnable(version))
                .get()
                .extracting(Refusal::reason)
                .isEqualTo(Reason.UNSUPPORTED_VERSION);
    }

    @org.junit.jupiter.api.Test
    void refusalsNameTheWayOut() {
        assertThat(VersionPolicy.checkChange("3.4.23", "3.5.16", true))
                .get()
                .extracting(Refusal::message)
                .asString()
                .contains("snapshot")
                .contains("3.5 cluster");
        assertThat(VersionPolicy.checkChange("3.4.23", "3.6.14", false))
                .get()
                .extracting(Refusal::message)
                .asString()
                .contains("one minor version at a time");
        assertThat(VersionPolicy.checkChange("3.5.30", "3.6.14", false))
                .get()
                .extracting(Refusal::message)
                .asString()
                .contains("3.5.32");
    }
}
