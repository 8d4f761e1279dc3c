package io.etcdoperator.api.crd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cross-check itself (the *RulesTest classes run through it in this module's failsafe run): a verdict of dev.cel
 * that the 1.36 server does not share fails the calling test, naming both sides.
 */
class CrossCheckIT {

    private static final CrdSchema CLUSTERS = CrdSchema.generated("etcdclusters");

    @Test
    void isOnInThisRun() {
        assertThat(ServerAdmission.enabled()).as("-D" + ServerAdmission.ENABLED).isTrue();
    }

    @Test
    void aRefusalThatTheServerDoesNotShareFails() {
        List<Violation> invented = List.of(new Violation("spec.replicas", "invented by the test"));

        assertThatThrownBy(() -> CrossCheck.compare(CLUSTERS, null, "spec: {version: 3.6.11, replicas: 3}\n", invented))
                .hasMessageContaining("disagree on this create")
                .hasMessageContaining("dev.cel: [Violation[path=spec.replicas, message=invented by the test]]")
                .hasMessageContaining("server: HTTP 201");
    }

    @Test
    void anAcceptanceThatTheServerDoesNotShareFails() {
        String stored = "spec: {version: 3.6.11, storage: {size: 2Gi}}\n";
        String shrunk = "spec: {version: 3.6.11, storage: {size: 1Gi}}\n";

        assertThatThrownBy(() -> CrossCheck.compare(CLUSTERS, stored, shrunk, List.of()))
                .hasMessageContaining("disagree on this update")
                .hasMessageContaining("dev.cel: accepted")
                .hasMessageContaining("server: HTTP 422")
                .hasMessageContaining("storage.size cannot be decreased");
    }

    @Test
    void aFieldThatTheServerDoesNotNameFails() {
        List<Violation> elsewhere = List.of(new Violation("spec.version", "must match"));

        assertThatThrownBy(
                        () -> CrossCheck.compare(CLUSTERS, null, "spec: {version: 3.6.11, replicas: -1}\n", elsewhere))
                .hasMessageContaining("the server names no cause at [spec.version]");
    }
}
