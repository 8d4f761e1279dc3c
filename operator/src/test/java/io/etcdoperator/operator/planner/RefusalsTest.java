package io.etcdoperator.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterStatus;
import io.etcdoperator.operator.reason.Reason;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

class RefusalsTest {

    /** A TLS + auth cluster with its status exactly as cozystack's operator writes it (no tls/auth/bootstrap latched). */
    private static final String TAKEN_OVER = """
      apiVersion: etcd-operator.cozystack.io/v1alpha2
      kind: EtcdCluster
      metadata: {name: tenant, namespace: default}
      spec:
        replicas: 3
        version: 3.5.16
        storage: {size: 1Gi}
        tls:
          client: {serverSecretRef: {name: tenant-server-tls}, operatorClientSecretRef: {name: tenant-client-tls}}
          peer: {secretRef: {name: tenant-peer-tls}}
        auth: {enabled: true, rootCredentialsSecretRef: {name: tenant-root}}
      status:
        readyMembers: 3
        selector: etcd-operator.cozystack.io/cluster=tenant
        brokenMembers: 0
        clusterID: 3f4e7c2a9b1d8e60
        clusterToken: default-tenant-0b6f2c1e
        authEnabled: true
        observed:
          replicas: 3
          version: 3.5.16
          storage: {size: 1Gi}
        conditions:
        - {type: Available, status: "True", reason: QuorumHealthy, message: 3/3 members ready,
           lastTransitionTime: "2026-11-01T10:00:00Z", observedGeneration: 4}
        observedGeneration: 4
      """;

    private static EtcdCluster takenOver() {
        return Serialization.unmarshal(TAKEN_OVER, EtcdCluster.class);
    }

    @Test
    void aClusterTakenOverFromCozystackIsNotRefusedForTlsAuthOrBootstrap() {
        EtcdCluster c = takenOver();
        assertThat(Refusals.of(c.getSpec(), c.getStatus())).isEmpty();
    }

    @Test
    void takingOverLatchesTheImmutablesFromTheSpecOnce() {
        EtcdCluster c = takenOver();
        EtcdClusterStatus status = c.getStatus();
        status.setObserved(Refusals.takenOverTarget(c.getSpec(), status).orElseThrow());
        assertThat(status.getObserved().getTls()).isEqualTo(c.getSpec().getTls());
        assertThat(status.getObserved().getAuth()).isEqualTo(c.getSpec().getAuth());
        assertThat(status.getObserved().getReplicas())
                .as("the rest of the target as it was")
                .isEqualTo(3);
        assertThat(Refusals.takenOverTarget(c.getSpec(), status)).as("once").isEmpty();
        status.setVersion("3.5.16"); // our first pass records what runs
        c.getSpec().setTls(null);
        assertThat(Refusals.of(c.getSpec(), status))
                .extracting(Refusal::message)
                .anyMatch(m -> m.contains("spec.tls is immutable"));
    }

    @Test
    void aTakenOverClusterWithoutTlsAuthOrBootstrapHasNothingToLatch() {
        EtcdCluster c = takenOver();
        c.getSpec().setTls(null);
        c.getSpec().setAuth(null);
        assertThat(Refusals.takenOverTarget(c.getSpec(), c.getStatus()))
                .as("else the admission would adopt nothing again every pass")
                .isEmpty();
    }

    @Test
    void ourOwnClusterStillRefusesAddingTls() {
        EtcdCluster c = takenOver();
        c.getStatus().setVersion("3.5.16");
        assertThat(Refusals.takenOverTarget(c.getSpec(), c.getStatus())).isEmpty();
        assertThat(Refusals.of(c.getSpec(), c.getStatus()))
                .extracting(Refusal::message)
                .anyMatch(m -> m.contains("spec.tls is immutable"))
                .anyMatch(m -> m.contains("spec.auth is immutable"));
    }

    @Test
    void aVersionChangeIsJudgedFromTheLowestRunningVersion() {
        EtcdCluster c = takenOver();
        c.getStatus().getObserved().setTls(c.getSpec().getTls());
        c.getStatus().getObserved().setAuth(c.getSpec().getAuth());
        c.getStatus().setAuthEnabled(false);
        c.getStatus().setVersion("3.4.23"); // an upgrade to 3.5.16 stopped half way
        c.getSpec().setVersion("3.4.23");
        assertThat(Refusals.of(c.getSpec(), c.getStatus()))
                .as("rolling back an interrupted upgrade")
                .isEmpty();
        c.getStatus().setVersion("3.5.16");
        assertThat(Refusals.of(c.getSpec(), c.getStatus()))
                .extracting(Refusal::reason)
                .containsExactly(Reason.UNSUPPORTED_UPGRADE);
    }

    @Test
    void anUnknownVersionIsRefusedBeforeAnythingIsCreated() {
        EtcdCluster c = takenOver();
        c.setStatus(new EtcdClusterStatus());
        c.getSpec().setVersion("3.3.27");
        assertThat(Refusals.of(c.getSpec(), c.getStatus()))
                .extracting(Refusal::reason)
                .containsExactly(Reason.UNSUPPORTED_VERSION);
    }
}
