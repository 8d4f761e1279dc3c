package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.AdditionalMetadata;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterSpec;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.MockCrds;
import io.etcdoperator.operator.TestClusters;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.metrics.ClusterMetrics;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The whole cluster controller against the fabric8 CRUD mock (which runs no CEL, as a pre-1.25 server): a spec it
 * cannot serve ends in Degraded=True/InvalidSpec with one event and no object created; an error in a pass ends in
 * Degraded=True/ReconcileFailed.
 */
@EnableKubernetesMockClient(crud = true)
class InvalidSpecMockTest {

    static KubernetesClient client;
    private static final String NS = "default";
    private EtcdClusterReconciler reconciler;

    @BeforeEach
    void setUp() throws Exception {
        MockCrds.install(client);
        Clock clock = Clock.systemUTC();
        var events = new EventRecorder(client, "test", clock);
        var pass = new ClusterReconcile(
                client,
                new EtcdDialer(client, new FakeEtcd(), Duration.ofSeconds(1)),
                events,
                new ClusterMetrics(new PrometheusRegistry()),
                clock,
                false,
                "cluster.local");
        reconciler = new EtcdClusterReconciler(pass, client, events, clock);
    }

    @Test
    void aSpecTheOperatorCannotServeIsRefusedAndNothingIsCreated() {
        refusedWithNothingCreated("overflow", s -> s.setVersion("3.5.99999999999999999999"), "spec.version");
        refusedWithNothingCreated("crowd", s -> s.setReplicas(9), "spec.replicas");
        refusedWithNothingCreated("tiny", s -> s.getStorage().setSize(new Quantity("32Mi")), "spec.storage.size");
        refusedWithNothingCreated(
                "greedy",
                s -> s.setResources(new ResourceRequirementsBuilder()
                        .addToRequests("memory", new Quantity("2Gi"))
                        .addToLimits("memory", new Quantity("1Gi"))
                        .build()),
                "spec.resources.requests.memory");
        refusedWithNothingCreated(
                "labelled",
                s -> {
                    var metadata = new AdditionalMetadata();
                    metadata.setLabels(Map.of("team", "x".repeat(64)));
                    s.setAdditionalMetadata(metadata);
                },
                "spec.additionalMetadata.labels");
    }

    @Test
    void aNameTooLongForTheClientServiceIsRefusedBeforeAnyServiceIsCreated() {
        refusedWithNothingCreated("n".repeat(57), s -> {}, "metadata.name");
    }

    @Test
    void anErrorInAPassEndsInDegradedReconcileFailedOnce() {
        EtcdCluster cluster =
                client.resource(TestClusters.cluster(NS, "failing", 3, "")).create();
        var failure = new IllegalStateException("etcd answered nonsense\nsecond line with detail");

        reconciler.updateErrorStatus(cluster, null, failure);
        reconciler.updateErrorStatus(cluster, null, failure);

        Condition degraded = condition("failing", Conditions.DEGRADED);
        assertThat(degraded.getStatus()).isEqualTo("True");
        assertThat(degraded.getReason()).isEqualTo("ReconcileFailed");
        assertThat(degraded.getMessage()).isEqualTo("pass failed: IllegalStateException: etcd answered nonsense");
        assertThat(Conditions.find(get("failing").getStatus().getConditions(), Conditions.AVAILABLE))
                .as("members may still serve")
                .isEmpty();
        assertThat(warnings("failing", "ReconcileFailed"))
                .as("one event, not one per retry")
                .hasSize(1);
    }

    @Test
    void theDegradedLineCarriesTheClustersNamespaceAndNameFromTheMdc() {
        EtcdCluster cluster =
                client.resource(TestClusters.cluster(NS, "logged", 3, "")).create();
        var lines = new ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent>();
        var log = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(DegradedStatus.class);
        lines.start();
        log.addAppender(lines);
        try {
            reconciler.updateErrorStatus(cluster, null, new IllegalStateException("etcd answered nonsense"));
        } finally {
            log.detachAppender(lines);
        }

        assertThat(lines.list)
                .filteredOn(e -> e.getFormattedMessage().equals("cluster degraded"))
                .singleElement()
                .satisfies(e -> assertThat(e.getMDCPropertyMap())
                        .containsEntry("namespace", NS)
                        .containsEntry("cluster", "logged"));
        assertThat(MDC.get("namespace")).as("cleared after the call").isNull();
    }

    private void refusedWithNothingCreated(String name, Consumer<EtcdClusterSpec> bad, String field) {
        EtcdCluster cluster = TestClusters.cluster(NS, name, 3, "");
        bad.accept(cluster.getSpec());
        client.resource(cluster).create();

        reconciler.reconcile(get(name), null);
        reconciler.reconcile(get(name), null);

        Condition degraded = condition(name, Conditions.DEGRADED);
        assertThat(degraded.getStatus()).as(field).isEqualTo("True");
        assertThat(degraded.getReason()).as(field).isEqualTo("InvalidSpec");
        assertThat(degraded.getMessage()).as(field).contains(field);
        assertThat(condition(name, Conditions.AVAILABLE).getStatus()).as(field).isEqualTo("False");
        assertThat(warnings(name, "InvalidSpec")).as("one event for " + field).hasSize(1);
        assertThat(get(name).getStatus().getObserved())
                .as("no target latched for " + field)
                .isNull();
        assertThat(client.resources(EtcdMember.class).inNamespace(NS).list().getItems())
                .as(field)
                .isEmpty();
        assertThat(client.pods().inNamespace(NS).list().getItems()).as(field).isEmpty();
        assertThat(client.persistentVolumeClaims().inNamespace(NS).list().getItems())
                .as(field)
                .isEmpty();
        assertThat(client.services().inNamespace(NS).list().getItems())
                .as(field)
                .isEmpty();
        assertThat(client.policy()
                        .v1()
                        .podDisruptionBudget()
                        .inNamespace(NS)
                        .list()
                        .getItems())
                .as(field)
                .isEmpty();
    }

    private EtcdCluster get(String name) {
        return client.resources(EtcdCluster.class)
                .inNamespace(NS)
                .withName(name)
                .get();
    }

    private Condition condition(String name, String type) {
        return Conditions.find(get(name).getStatus().getConditions(), type).orElseThrow();
    }

    private List<String> warnings(String name, String reason) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
                .map(e -> e.getMessage())
                .toList();
    }
}
