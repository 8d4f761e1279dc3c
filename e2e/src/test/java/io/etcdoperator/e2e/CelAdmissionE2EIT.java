package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdoperator.localkube.ApiExtensionsServer;
import io.etcdoperator.localkube.ControlPlane;
import io.etcdoperator.localkube.node.ImageCatalogue;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An illegal change (storage shrink) meets two guards. Where the API server enforces the CRD's CEL rules (a 1.36
 * apiextensions-apiserver serving our group behind kube-apiserver 1.20's aggregator) it is refused with HTTP 422 and
 * the CRD's message, and the operator never sees it. Where the rules are dropped (kube-apiserver 1.20 holding the
 * CRDs) the change is stored, and the operator refuses it itself with Degraded=True/InvalidSpec. Each test has its
 * own control plane without nodes, so both paths run whatever {@code -De2e.cel} says.
 */
class CelAdmissionE2EIT {

    private static final Duration STEP = Duration.ofMinutes(2);
    private static final Path WORK =
            Path.of("target", "cel-e2e-" + ProcessHandle.current().pid()).toAbsolutePath();
    private static final Map<String, Object> ONE_GI =
            Map.of("replicas", 1, "version", "3.5.16", "storage", Map.of("size", "1Gi"));
    private static final String SHRINK = "{\"spec\":{\"storage\":{\"size\":\"512Mi\"}}}";

    @Test
    void withCelOnTheServerTheApiServerRefusesTheChangeWithTheCrdsMessage() throws Exception {
        try (ControlPlane plane = ControlPlane.start(WORK.resolve("control-plane"));
                ApiExtensionsServer apiext = E2eEnvironment.serveProjectApiFrom136(plane, WORK.resolve("apiext"));
                KubernetesClient client = plane.newClient();
                OperatorProcess operator = operator(plane, WORK)) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName("cel")
                            .endMetadata()
                            .build())
                    .create();
            var clusters =
                    client.genericKubernetesResources(E2eEnvironment.CLUSTERS).inNamespace("cel");
            clusters.resource(cluster("guarded")).create();
            // the operator works on the aggregated kind: it reads it through watches and writes its status
            Await.until(
                    "the operator's first status on guarded",
                    STEP,
                    () -> EtcdStatus.condition(clusters.withName("guarded").get(), "Progressing")
                            .isPresent());

            assertThatThrownBy(() -> clusters.withName("guarded").patch(PatchContext.of(PatchType.JSON_MERGE), SHRINK))
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(422);
                        assertThat(e.getStatus().getDetails().getCauses()).anySatisfy(cause -> {
                            assertThat(cause.getField()).isEqualTo("spec.storage.size");
                            assertThat(cause.getMessage())
                                    .isEqualTo("Invalid value: \"512Mi\": storage.size cannot be decreased");
                        });
                    });
            GenericKubernetesResource stored = clusters.withName("guarded").get();
            assertThat(stored.get("spec", "storage", "size").toString()).isEqualTo("1Gi");
            assertThat(EtcdStatus.condition(stored, "Degraded")
                            .map(c -> c.get("reason"))
                            .orElse("none"))
                    .isNotEqualTo("InvalidSpec");

            clusters.withName("guarded").delete();
            Await.until(
                    "guarded deleted (the operator's finalizers released through the aggregator)",
                    STEP,
                    () -> clusters.withName("guarded").get() == null);
            assertThat(operator.isAlive()).isTrue();
        }
    }

    /**
     * Its own kube-apiserver 1.20 holding the CRDs, whatever the shared environment runs: the suite's default setup
     * enforces the rules, so the operator's re-check (what guards clusters on servers before 1.25) is proven here.
     */
    @Test
    void withoutTheRulesTheOperatorRefusesTheSameChange() throws Exception {
        Path work = WORK.resolve("rules-absent");
        try (ControlPlane plane = ControlPlane.start(work.resolve("control-plane"));
                KubernetesClient client = rulesDroppingCrds(plane.newClient());
                OperatorProcess operator = operator(plane, work)) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName("cel-absent")
                            .endMetadata()
                            .build())
                    .create();
            var clusters =
                    client.genericKubernetesResources(E2eEnvironment.CLUSTERS).inNamespace("cel-absent");
            clusters.resource(cluster("unguarded")).create();
            Await.until(
                    "the target latched and a member PVC of 1Gi",
                    STEP,
                    () -> EtcdStatus.condition(clusters.withName("unguarded").get(), "Progressing")
                                    .isPresent()
                            && !client.persistentVolumeClaims()
                                    .inNamespace("cel-absent")
                                    .list()
                                    .getItems()
                                    .isEmpty());

            clusters.withName("unguarded").patch(PatchContext.of(PatchType.JSON_MERGE), SHRINK);
            assertThat(clusters.withName("unguarded")
                            .get()
                            .get("spec", "storage", "size")
                            .toString())
                    .as("kube-apiserver 1.20 dropped the rule and stored the change")
                    .isEqualTo("512Mi");
            Await.until(
                    "Degraded=True/InvalidSpec",
                    STEP,
                    () -> EtcdStatus.condition(clusters.withName("unguarded").get(), "Degraded")
                            .map(c -> "True".equals(c.get("status")) && "InvalidSpec".equals(c.get("reason")))
                            .orElse(false));
            Await.until(
                    "an InvalidSpec event",
                    STEP,
                    () -> client.v1().events().inNamespace("cel-absent").list().getItems().stream()
                            .anyMatch(e -> "InvalidSpec".equals(e.getReason())));
            assertThat(client.persistentVolumeClaims()
                            .inNamespace("cel-absent")
                            .list()
                            .getItems())
                    .allSatisfy(pvc -> assertThat(pvc.getSpec()
                                    .getResources()
                                    .getRequests()
                                    .get("storage")
                                    .toString())
                            .isEqualTo("1Gi"));
            assertThat(operator.isAlive()).isTrue();
        }
    }

    private static KubernetesClient rulesDroppingCrds(KubernetesClient client) {
        ProjectCrds.install(client); // into kube-apiserver 1.20, which drops x-kubernetes-validations
        return client;
    }

    private static OperatorProcess operator(ControlPlane plane, Path work) throws Exception {
        return OperatorProcess.start(
                        work.resolve("operator.log"),
                        Map.of("KUBECONFIG", plane.kubeconfig().toString(), "POD_NAMESPACE", "default"),
                        List.of(
                                "--metrics-bind-address",
                                "127.0.0.1:0",
                                "--health-probe-bind-address",
                                "127.0.0.1:0",
                                "--cluster-domain",
                                "cluster.local",
                                "--operator-image",
                                E2eEnvironment.OPERATOR_IMAGE,
                                "--etcd-tools-dir",
                                ImageCatalogue.etcdTools(work.resolve("etcd-tools"))
                                        .toString()),
                        List.of("-Xmx384m"))
                .awaitStarted(Duration.ofSeconds(60));
    }

    private static GenericKubernetesResource cluster(String name) {
        GenericKubernetesResource cluster = new GenericKubernetesResource();
        cluster.setApiVersion("etcd-operator.cozystack.io/v1alpha2");
        cluster.setKind("EtcdCluster");
        cluster.setMetadata(new ObjectMetaBuilder().withName(name).build());
        cluster.setAdditionalProperty("spec", ONE_GI);
        return cluster;
    }
}
