package io.etcdoperator.operator.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.operator.MovableClock;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.planner.OwnedObjects.CertificateShape;
import io.etcdoperator.operator.planner.OwnedObjects.Shape;
import io.etcdoperator.operator.reads.CachePass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A settled cert-manager cluster's passes send no request for its Certificates between rechecks. */
@EnableKubernetesMockClient(crud = true)
class CertManagerObjectsTest {

    static KubernetesClient client;
    static KubernetesMockServer server;

    private final MovableClock clock = new MovableClock(Instant.parse("2026-11-27T10:00:00Z"));

    @Test
    void certificatesSeenToExistAreLookedForAgainOnlyAfterTheRecheckPeriod() {
        EtcdCluster cluster = TlsClusters.certManager("server-ca", "client-ca", "peer-ca", "Issuer");
        try (KubernetesClient guarded = new KubernetesClientBuilder()
                .withConfig(client.getConfiguration())
                .withHttpClientBuilderConsumer(CachePass::guard)
                .build()) {
            var objects =
                    new CertManagerObjects(guarded, new EventRecorder(client, "test", clock), "cluster.local", clock);
            List<CertificateShape> missing = CachePass.run(() -> objects.observe(cluster));
            assertThat(missing).extracting(CertificateShape::shape).containsOnly(Shape.ABSENT);
            assertThatThrownBy(() -> CachePass.run(
                            () -> objects.create(cluster, missing.getFirst().name())))
                    .as("a missing Certificate is created on the API server, never in a cache pass")
                    .isInstanceOf(CachePass.NeedsApiServer.class);
            for (CertificateShape c : missing) {
                assertThat(objects.create(cluster, c.name())).isEqualTo(Shape.IN_SHAPE);
            }
            var another =
                    new CertManagerObjects(client, new EventRecorder(client, "test", clock), "cluster.local", clock);
            assertThat(another.create(cluster, missing.getFirst().name()))
                    .as("created meanwhile by another pass (409): read back, ours")
                    .isEqualTo(Shape.IN_SHAPE);
            int created = server.getRequestCount();

            clock.advance(CertManagerObjects.RECHECK.minusSeconds(1));
            assertThat(CachePass.run(() -> objects.observe(cluster)))
                    .extracting(CertificateShape::shape)
                    .containsOnly(Shape.IN_SHAPE);
            assertThat(server.getRequestCount())
                    .as("within the period: nothing sent")
                    .isEqualTo(created);

            clock.advance(Duration.ofSeconds(2));
            CachePass.run(() -> objects.observe(cluster));
            int certificates =
                    CertManagerCertificates.forCluster(cluster, "cluster.local").size();
            assertThat(server.getRequestCount())
                    .as("after it: one GET per Certificate, in the cache pass")
                    .isEqualTo(created + certificates);
        }
    }

    @Test
    void aPredecessorsCertificateIsNotTrustedByAClusterMadeAgainUnderItsName() {
        EtcdCluster old = TlsClusters.certManager("server-ca", null, null, "Issuer");
        old.getMetadata().setNamespace("again");
        EtcdCluster again = TlsClusters.certManager("server-ca", null, null, "Issuer");
        again.getMetadata().setNamespace("again");
        again.getMetadata().setUid("11111111-2222-3333-4444-555555555555");
        var objects = new CertManagerObjects(client, new EventRecorder(client, "test", clock), "cluster.local", clock);
        objects.observe(old).forEach(c -> objects.create(old, c.name())); // the predecessor's, not collected yet
        int before = server.getRequestCount();
        assertThat(objects.observe(again)).extracting(CertificateShape::shape).containsOnly(Shape.FOREIGN);
        objects.observe(again);
        assertThat(server.getRequestCount() - before)
                .as("looked for every pass while it is not the cluster's own")
                .isEqualTo(2
                        * CertManagerCertificates.forCluster(again, "cluster.local")
                                .size());
    }
}
