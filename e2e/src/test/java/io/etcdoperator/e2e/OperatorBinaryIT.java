package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.localkube.ControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The operator binary as a Deployment runs it, against a real kube-apiserver 1.20: configuration errors, Lease
 * leader election with a standby taking over, /healthz and /readyz, Prometheus metrics and the start-up log.
 * No nodes run here, so member Pods stay Pending; reconciling is proven by the objects the leader creates.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorBinaryIT {

    private static final String NAMESPACE = "binary-it";
    private static final String LEASE = "etcd-operator-leader";
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final ResourceDefinitionContext CLUSTERS = kind("etcdclusters", "EtcdCluster");
    private static final ResourceDefinitionContext MEMBERS = kind("etcdmembers", "EtcdMember");
    private static final Path WORK = Path.of("target", "operator-binary-it");

    private static ControlPlane controlPlane;
    private static KubernetesClient client;
    private static OperatorProcess leader;
    private static OperatorProcess standby;

    @BeforeAll
    static void startControlPlane() throws Exception {
        deleteRecursively(WORK);
        controlPlane = ControlPlane.start(WORK.resolve("kube"));
        client = controlPlane.newClient();
        ProjectCrds.install(client);
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(NAMESPACE)
                        .endMetadata()
                        .build())
                .create();
    }

    @AfterAll
    static void stop() {
        Stream.of(leader, standby).filter(p -> p != null).forEach(OperatorProcess::close);
        if (client != null) {
            client.close();
        }
        if (controlPlane != null) {
            controlPlane.close();
        }
    }

    @Test
    @Order(1)
    void badConfigurationStopsAtStartWithExitCodeTwoNamingTheFlag() throws Exception {
        try (OperatorProcess bad = OperatorProcess.start(
                WORK.resolve("bad-flag.log"),
                Map.of(),
                List.of("--metrics-bind-address", "everywhere", "--operator-image", "example.org/etcd-operator:test"),
                List.of())) {
            assertThat(bad.awaitExit(Duration.ofSeconds(30))).isEqualTo(2);
            assertThat(bad.logText())
                    .contains("invalid configuration")
                    .contains("--metrics-bind-address")
                    .contains("everywhere");
        }
    }

    @Test
    @Order(2)
    void leaderTakesTheLeaseServesProbesAndMetricsAndReconciles() {
        leader = operator("operator-a").awaitStarted(STARTUP);

        assertThat(leader.get("/healthz").statusCode()).isEqualTo(200);
        Await.until(
                "/readyz of the leader answers 200",
                STARTUP,
                () -> leader.get("/readyz").statusCode() == 200);
        Await.until("Lease held by operator-a", STARTUP, () -> "operator-a".equals(leaseHolder()));
        assertThat(leader.logText()).contains("etcd-operator started").contains("leaderElection=true");

        createCluster("demo");
        Await.until(
                "the leader creates the seed EtcdMember of demo",
                STARTUP,
                () -> !membersOf("demo").isEmpty());
        Await.until(
                "the seed member's Pod exists",
                STARTUP,
                () -> !client.pods()
                        .inNamespace(NAMESPACE)
                        .withLabel("etcd-operator.cozystack.io/cluster", "demo")
                        .list()
                        .getItems()
                        .isEmpty());

        Pattern members = Pattern.compile("etcd_operator_cluster_members\\{[^}]*cluster=\"demo\"[^}]*namespace=\""
                + NAMESPACE + "\"[^}]*} 1\\.0");
        Await.until(
                "/metrics reports one member of demo",
                STARTUP,
                () -> members.matcher(leader.get("/metrics").body()).find());
        String metrics = leader.get("/metrics").body();
        assertThat(metrics)
                .contains("etcd_operator_cluster_voters{")
                .contains("etcd_operator_cluster_learners{")
                .contains("etcd_operator_cluster_ready_members{")
                .containsPattern("operator_sdk_reconciliations_\\w+");
    }

    @Test
    @Order(3)
    void standbyWaitsThenTakesOverWhenTheLeaderStops() throws Exception {
        standby = operator("operator-b").awaitStarted(STARTUP);
        Await.until(
                "/readyz of the standby answers 200",
                STARTUP,
                () -> standby.get("/readyz").statusCode() == 200);
        assertThat(leaseHolder()).isEqualTo("operator-a");

        // 143 = 128 + SIGTERM: the JVM's exit status after its shutdown hooks (operator stop) have run
        assertThat(leader.terminate(Duration.ofSeconds(30)))
                .as("leader exit code on SIGTERM")
                .isEqualTo(143);
        assertThat(leader.logText()).contains("is shutting down");

        Await.until("Lease taken over by operator-b", Duration.ofSeconds(90), () -> "operator-b".equals(leaseHolder()));
        createCluster("after-failover");
        Await.until(
                "the new leader creates the seed EtcdMember of after-failover",
                STARTUP,
                () -> !membersOf("after-failover").isEmpty());
    }

    @Test
    @Order(4)
    void aLeaderWhoseLeaseIsTakenExitsAtOnce() throws Exception {
        assertThat(leaseHolder()).isEqualTo("operator-b");
        // another replica (or a partition that let its Lease run out) now holds the Lease for the next minute
        client.leases().inNamespace(NAMESPACE).withName(LEASE).edit(lease -> {
            lease.getSpec().setHolderIdentity("intruder");
            lease.getSpec().setLeaseDurationSeconds(60);
            lease.getSpec().setRenewTime(ZonedDateTime.now(ZoneOffset.UTC));
            return lease;
        });
        assertThat(standby.awaitExit(Duration.ofSeconds(60)))
                .as("exit code of the replica that lost its Lease")
                .isEqualTo(3);
        assertThat(standby.logText()).contains("lost the leader Lease; exiting at once");
    }

    private static OperatorProcess operator(String name) {
        Map<String, String> env = Map.of(
                "KUBECONFIG", controlPlane.kubeconfig().toAbsolutePath().toString(),
                "POD_NAME", name,
                "POD_NAMESPACE", NAMESPACE);
        return OperatorProcess.start(
                WORK.resolve(name + ".log"),
                env,
                List.of(
                        "--leader-elect",
                        "--metrics-bind-address",
                        "127.0.0.1:0",
                        "--health-probe-bind-address",
                        "127.0.0.1:0",
                        "--cluster-domain",
                        "cluster.local",
                        "--operator-image",
                        "example.org/etcd-operator:test"),
                List.of());
    }

    private static String leaseHolder() {
        Lease lease = client.leases().inNamespace(NAMESPACE).withName(LEASE).get();
        return Optional.ofNullable(lease)
                .map(l -> l.getSpec().getHolderIdentity())
                .orElse(null);
    }

    private static void createCluster(String name) {
        GenericKubernetesResource cluster = new GenericKubernetesResource();
        cluster.setApiVersion("etcd-operator.cozystack.io/v1alpha2");
        cluster.setKind("EtcdCluster");
        cluster.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(NAMESPACE).build());
        cluster.setAdditionalProperty("spec", Map.of("replicas", 1, "version", "3.5.16"));
        client.genericKubernetesResources(CLUSTERS)
                .inNamespace(NAMESPACE)
                .resource(cluster)
                .create();
    }

    private static List<GenericKubernetesResource> membersOf(String cluster) {
        return client.genericKubernetesResources(MEMBERS)
                .inNamespace(NAMESPACE)
                .withLabel("etcd-operator.cozystack.io/cluster", cluster)
                .list()
                .getItems();
    }

    private static ResourceDefinitionContext kind(String plural, String kind) {
        return new ResourceDefinitionContext.Builder()
                .withGroup("etcd-operator.cozystack.io")
                .withVersion("v1alpha2")
                .withPlural(plural)
                .withKind(kind)
                .withNamespaced(true)
                .build();
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
