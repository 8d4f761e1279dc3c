package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.localkube.ControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Guards the locally built kube-apiserver: built with a newer Go, its schema validator took "", 0 and false for
 * null and refused them (hack/kube-binaries.sh patches that). The operator writes all three.
 */
class CustomResourceValuesIT {

    @Test
    void emptyStringsZerosAndFalseSurviveValidationAndStorage() throws Exception {
        Path work = Path.of("target", "custom-resource-values-it");
        OperatorBinaryIT.deleteRecursively(work);
        try (ControlPlane plane = ControlPlane.start(work);
                KubernetesClient client = plane.newClient()) {
            ProjectCrds.install(client);
            var members = client.genericKubernetesResources(context("etcdmembers", "EtcdMember"))
                    .inNamespace("default");
            members.resource(resource(
                            "EtcdMember",
                            "pending",
                            Map.of(
                                    "clusterName",
                                    "demo",
                                    "version",
                                    "3.5.16",
                                    "initialCluster",
                                    "",
                                    "clusterToken",
                                    "t",
                                    "bootstrap",
                                    false,
                                    "storage",
                                    Map.of("size", "1Gi"))))
                    .create();
            var clusters = client.genericKubernetesResources(context("etcdclusters", "EtcdCluster"))
                    .inNamespace("default");
            clusters.resource(resource("EtcdCluster", "paused", Map.of("version", "3.5.16", "replicas", 0)))
                    .create();

            assertThat(spec(members.withName("pending").get()))
                    .containsEntry("initialCluster", "")
                    .containsEntry("bootstrap", false);
            assertThat(spec(clusters.withName("paused").get())).containsEntry("replicas", 0);
        }
    }

    private static GenericKubernetesResource resource(String kind, String name, Map<String, Object> spec) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion("etcd-operator.cozystack.io/v1alpha2");
        r.setKind(kind);
        r.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace("default").build());
        r.setAdditionalProperty("spec", spec);
        return r;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource r) {
        return (Map<String, Object>) r.getAdditionalProperties().get("spec");
    }

    private static ResourceDefinitionContext context(String plural, String kind) {
        return new ResourceDefinitionContext.Builder()
                .withGroup("etcd-operator.cozystack.io")
                .withVersion("v1alpha2")
                .withPlural(plural)
                .withKind(kind)
                .withNamespaced(true)
                .build();
    }
}
