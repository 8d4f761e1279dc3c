package io.etcdoperator.localkube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.policy.v1beta1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1beta1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** Starts a real kube-apiserver and kube-controller-manager 1.20.2 and checks what the operator's tests rely on. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ControlPlaneIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String NAMESPACE = "local-kube-it";
    private static final String CANARY_CRD = "/crds/canaries.localkube.etcdoperator.io.yaml";
    private static final Path PROJECT_CRDS = Path.of("..", "config", "crd", "bases");

    private static ControlPlane controlPlane;
    private static KubernetesClient client;

    @BeforeAll
    static void startControlPlane() throws InterruptedException, IOException {
        // a fixed dir, emptied first: each run leaves its logs for inspection without piling up etcd WALs
        Path workDir = Path.of("target", "control-plane-it");
        deleteRecursively(workDir);
        controlPlane = ControlPlane.start(workDir);
        System.out.printf(
                "local control plane ready in %d ms (work dir %s)%n",
                controlPlane.timeToReady().toMillis(), controlPlane.workDir());
        client = controlPlane.newClient();
    }

    @AfterAll
    static void stopControlPlane() {
        if (client != null) {
            client.close();
        }
        if (controlPlane != null) {
            controlPlane.close();
        }
    }

    @Test
    @Order(1)
    void servesKubernetes120AndCreatesNamespaces() {
        assertThat(client.getKubernetesVersion().getGitVersion()).isEqualTo("v1.20.2");
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(NAMESPACE)
                        .endMetadata()
                        .build())
                .create();

        assertThat(client.namespaces().withName(NAMESPACE).get().getStatus().getPhase())
                .isEqualTo("Active");
    }

    @Test
    @Order(2)
    void acceptsCrdWithValidationRulesButDropsThem() {
        CustomResourceDefinition canary = loadCrd(ControlPlaneIT.class.getResourceAsStream(CANARY_CRD));
        assertThat(specSchemaOf(canary).getXKubernetesValidations()).isNotEmpty();

        establish(canary);

        CustomResourceDefinition stored = client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(canary.getMetadata().getName())
                .get();
        assertThat(specSchemaOf(stored).getXKubernetesValidations()).isNullOrEmpty();
    }

    @Test
    @Order(3)
    void establishesTheProjectCrds() throws IOException {
        List<Path> files = projectCrdFiles();
        assumeFalse(files.isEmpty(), "no CRDs in " + PROJECT_CRDS + " yet");
        List<String> rejected = new ArrayList<>();
        for (Path file : files) {
            try (InputStream in = Files.newInputStream(file)) {
                establish(loadCrd(in));
            } catch (KubernetesClientException e) {
                rejected.add(file.getFileName() + ": " + e.getStatus().getMessage());
            }
        }

        assertThat(rejected).as("CRDs that Kubernetes 1.20.2 refuses").isEmpty();
    }

    @Test
    @Order(4)
    void storesCustomResourcesWithDefaultsAndStatus() {
        var canaries = client.genericKubernetesResources("localkube.etcdoperator.io/v1alpha1", "Canary")
                .inNamespace(NAMESPACE);
        GenericKubernetesResource created = canaries.resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion("localkube.etcdoperator.io/v1alpha1")
                        .withKind("Canary")
                        .withNewMetadata()
                        .withName("tweety")
                        .endMetadata()
                        .addToAdditionalProperties("spec", Map.of())
                        .build())
                .create();
        assertThat(created.<Integer>get("spec", "replicas")).isEqualTo(3);

        created.setAdditionalProperty("status", Map.of("observedGeneration", 1));
        canaries.resource(created).updateStatus();

        assertThat(canaries.withName("tweety").get().<Integer>get("status", "observedGeneration"))
                .isEqualTo(1);
    }

    @Test
    @Order(5)
    void garbageCollectsDependentsOfDeletedOwners() {
        var configMaps = client.configMaps().inNamespace(NAMESPACE);
        ConfigMap owner = configMaps.resource(configMap("owner", List.of())).create();
        var ownerReference = new OwnerReferenceBuilder()
                .withApiVersion("v1")
                .withKind("ConfigMap")
                .withName(owner.getMetadata().getName())
                .withUid(owner.getMetadata().getUid())
                .build();
        configMaps.resource(configMap("dependent", List.of(ownerReference))).create();

        configMaps.withName("owner").delete();

        awaitUntil(
                "the dependent ConfigMap is garbage-collected",
                () -> configMaps.withName("dependent").get() == null);
    }

    @Test
    @Order(6)
    void servesOnlyPolicyV1beta1DisruptionBudgets() {
        assertThat(client.supports("policy/v1beta1", "PodDisruptionBudget")).isTrue();
        assertThat(client.supports("policy/v1", "PodDisruptionBudget")).isFalse();

        var budgets = client.resources(PodDisruptionBudget.class).inNamespace(NAMESPACE);
        budgets.resource(new PodDisruptionBudgetBuilder()
                        .withNewMetadata()
                        .withName("members")
                        .endMetadata()
                        .withNewSpec()
                        .withNewMinAvailable(1)
                        .withNewSelector()
                        .addToMatchLabels("app", "etcd")
                        .endSelector()
                        .endSpec()
                        .build())
                .create();

        // the disruption controller of kube-controller-manager fills in the status
        awaitUntil("the PodDisruptionBudget status is observed", () -> {
            PodDisruptionBudget budget = budgets.withName("members").get();
            return budget.getStatus() != null
                    && Long.valueOf(1).equals(budget.getStatus().getObservedGeneration());
        });
    }

    @Test
    @Order(7)
    void admitsPodsWithAProjectedServiceAccountToken() {
        awaitUntil(
                "the default ServiceAccount exists",
                () -> client.serviceAccounts()
                                .inNamespace(NAMESPACE)
                                .withName("default")
                                .get()
                        != null);

        Pod pod = client.pods()
                .inNamespace(NAMESPACE)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("member-0")
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("etcd")
                        .withImage("etcd")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();

        assertThat(pod.getSpec().getServiceAccountName()).isEqualTo("default");
        assertThat(pod.getSpec().getVolumes())
                .anySatisfy(volume -> assertThat(volume.getProjected().getSources())
                        .anyMatch(source -> source.getServiceAccountToken() != null));
    }

    @Test
    @Order(8)
    void closeStopsEveryProcess() {
        List<ProcessHandle> processes = controlPlane.processes();
        assertThat(processes).hasSize(3).allMatch(ProcessHandle::isAlive);

        client.close();
        controlPlane.close();

        assertThat(processes).noneMatch(ProcessHandle::isAlive);
    }

    private static void establish(CustomResourceDefinition crd) {
        // create/update, not server-side apply: 1.20 rejects an apply that carries x-kubernetes-validations
        client.resource(crd).createOr(NonDeletingOperation::update);
        awaitUntil(crd.getMetadata().getName() + " is Established", () -> {
            CustomResourceDefinition current = client.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .withName(crd.getMetadata().getName())
                    .get();
            return current.getStatus() != null
                    && current.getStatus().getConditions() != null
                    && current.getStatus().getConditions().stream()
                            .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
        });
    }

    private static CustomResourceDefinition loadCrd(InputStream yaml) {
        return client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .load(yaml)
                .item();
    }

    private static JSONSchemaProps specSchemaOf(CustomResourceDefinition crd) {
        return crd.getSpec()
                .getVersions()
                .getFirst()
                .getSchema()
                .getOpenAPIV3Schema()
                .getProperties()
                .get("spec");
    }

    private static List<Path> projectCrdFiles() throws IOException {
        if (!Files.isDirectory(PROJECT_CRDS)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(PROJECT_CRDS)) {
            return files.filter(
                            f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
                    .sorted()
                    .toList();
        }
    }

    private static ConfigMap configMap(String name, List<OwnerReference> owners) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withOwnerReferences(new ArrayList<>(owners))
                .endMetadata()
                .addToData("role", name)
                .build();
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    private static void awaitUntil(String condition, BooleanSupplier check) {
        Instant deadline = Instant.now().plus(DEADLINE);
        while (!check.getAsBoolean()) {
            assertThat(Instant.now()).as("deadline for: " + condition).isBefore(deadline);
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting until " + condition, e);
            }
        }
    }
}
