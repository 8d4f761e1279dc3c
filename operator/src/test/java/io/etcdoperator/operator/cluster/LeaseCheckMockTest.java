package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** A replica writes the later parts of a multi-write step only while the Lease is its own and unexpired. */
@EnableKubernetesMockClient(crud = true)
class LeaseCheckMockTest {

    static KubernetesClient client;
    private static final Instant NOW = Instant.parse("2026-11-27T07:00:00Z");
    private final LeaseCheck check =
            LeaseCheck.of(client, "ops", "etcd-operator-leader", "me", Clock.fixed(NOW, ZoneOffset.UTC));

    private void lease(String holder, Instant renewed) {
        client.leases()
                .inNamespace("ops")
                .resource(new LeaseBuilder()
                        .withNewMetadata()
                        .withName("etcd-operator-leader")
                        .endMetadata()
                        .withNewSpec()
                        .withHolderIdentity(holder)
                        .withLeaseDurationSeconds(15)
                        .withRenewTime(ZonedDateTime.ofInstant(renewed, ZoneOffset.UTC))
                        .endSpec()
                        .build())
                .createOr(r -> r.update());
    }

    @Test
    void heldAndFreshPasses() {
        lease("me", NOW.minusSeconds(3));
        assertThatCode(check::ensureHeld).doesNotThrowAnyException();
    }

    @Test
    void anotherHolderOrAnExpiredLeaseStopsTheStep() {
        lease("other-replica", NOW.minusSeconds(1));
        assertThatThrownBy(check::ensureHeld)
                .isInstanceOf(LeaseCheck.LeaseLost.class)
                .hasMessageContaining("other-replica");
        lease("me", NOW.minusSeconds(16));
        assertThatThrownBy(check::ensureHeld)
                .isInstanceOf(LeaseCheck.LeaseLost.class)
                .hasMessageContaining("expired");
    }

    @Test
    void withoutLeaderElectionNothingIsChecked() {
        assertThatCode(LeaseCheck.NONE::ensureHeld).doesNotThrowAnyException();
    }
}
