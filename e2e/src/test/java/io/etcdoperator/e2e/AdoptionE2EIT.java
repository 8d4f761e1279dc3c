package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A running three-member etcd that the operator did not make (plain Pods under a headless Service, as a hand-made
 * StatefulSet or a kubeadm datastore would be) is adopted while a client writes to it: the operator's members join as
 * learners and are promoted, leadership moves to one of them, and once the client uses the cluster's Service and a
 * person annotates the EtcdCluster, the external members are removed one at a time. Same cluster id, no write lost.
 */
@ExtendWith(LocalKubernetesExtension.class)
class AdoptionE2EIT {

    private static final String IMAGE = "quay.io/coreos/etcd:v3.5.16";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aRunningEtcdIsAdoptedUnderWritesWithoutLosingAKey(E2eEnvironment env) throws Exception {
        String ns = env.namespace("adopt");
        List<Pod> external = startExternal(env, ns);
        String hosts = external.stream().map(E2eEnvironment::clientUrl).collect(Collectors.joining(","));
        JsonNode before = JSON.readTree(env.etcdctl(hosts, "member", "list", "-w", "json"));
        String clusterId =
                String.format("%016x", before.at("/header/cluster_id").asLong());
        List<String> urls =
                IntStream.range(0, 3).mapToObj(i -> clientUrl(ns, i)).toList();
        AtomicReference<String> endpoints = new AtomicReference<>(String.join(",", urls));
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "adoption-");
        try (WritingClient writer = WritingClient.with(
                        env,
                        ns,
                        "adopted",
                        () -> "etcdctl --endpoints=" + endpoints.get() + " --dial-timeout=3s --command-timeout=5s")
                .start()) {
            Await.until(
                    "the client writes to the running cluster",
                    Duration.ofMinutes(1),
                    () -> writer.acknowledged().size() >= 10);
            Instant created = Instant.now();
            env.createCluster(
                    ns,
                    "adopted",
                    Map.of(
                            "replicas",
                            3,
                            "version",
                            "3.5.16",
                            "storage",
                            Map.of("size", "256Mi"),
                            "bootstrap",
                            Map.of("existing", Map.of("clientUrls", urls))));
            Await.until("6 voters, one of the operator's leading, removal awaited", Duration.ofMinutes(5), () -> {
                GenericKubernetesResource c = env.cluster(ns, "adopted");
                return EtcdStatus.condition(c, "Progressing")
                        .filter(p -> "AdoptionAwaitingRemoval".equals(p.get("reason"))
                                && String.valueOf(p.get("message")).contains("3 external member(s)"))
                        .isPresent();
            });
            Duration joined = Duration.between(created, Instant.now());
            JsonNode six = JSON.readTree(env.etcdctl(hosts, "member", "list", "-w", "json"));
            assertThat(six.at("/members"))
                    .as("etcd's members while both halves vote")
                    .hasSize(6);
            assertThat(six.at("/members").findValues("isLearner"))
                    .as("learners (etcdctl prints the field only for them)")
                    .noneMatch(JsonNode::asBoolean);
            GenericKubernetesResource adopting = env.cluster(ns, "adopted");
            assertThat(E2eEnvironment.status(adopting).get("clusterID")).isEqualTo(clusterId);
            assertThat(EtcdStatus.condition(adopting, "Ready"))
                    .hasValueSatisfying(r -> assertThat(r.get("status")).isEqualTo("False"));
            assertThat(leaderName(env, hosts)).as("the leader").startsWith("adopted-");

            int beforeSwitch = writer.acknowledged().size();
            endpoints.set("http://adopted-client." + ns + ".svc:2379");
            Await.until(
                    "writes through the cluster's Service",
                    Duration.ofMinutes(1),
                    () -> writer.acknowledged().size() >= beforeSwitch + 10);
            Instant allowed = Instant.now();
            env.client()
                    .genericKubernetesResources(E2eEnvironment.CLUSTERS)
                    .inNamespace(ns)
                    .withName("adopted")
                    .patch(
                            PatchContext.of(PatchType.JSON_MERGE),
                            "{\"metadata\":{\"annotations\":{"
                                    + "\"etcd-operator.cozystack.io/remove-external-members\":\"true\"}}}");
            Await.until("adoption complete, READY=3, Ready=True", Duration.ofMinutes(3), () -> {
                GenericKubernetesResource c = env.cluster(ns, "adopted");
                return List.of().equals(E2eEnvironment.status(c).get("externalMembers"))
                        && WritingClient.ready(env, ns, "adopted") == 3
                        && EtcdStatus.condition(c, "Ready")
                                .filter(r -> "True".equals(r.get("status")))
                                .isPresent();
            });
            Duration removed = Duration.between(allowed, Instant.now());
            writer.stop();
            System.out.printf(
                    "adoption of a 3-member etcd: 6 voters and one of ours leading %.1f s after the EtcdCluster was "
                            + "created, external members removed %.1f s after the annotation; %s%n",
                    joined.toMillis() / 1000.0, removed.toMillis() / 1000.0, writer.summary());
            assertThat(writer.unreadAcknowledged(dir))
                    .as("acknowledged keys missing")
                    .isEmpty();
            assertThat(writer.failed()).isZero();

            String ours = env.endpoints(ns, "adopted");
            JsonNode after = JSON.readTree(env.etcdctl(ours, "member", "list", "-w", "json"));
            assertThat(String.format("%016x", after.at("/header/cluster_id").asLong()))
                    .as("one cluster id")
                    .isEqualTo(clusterId);
            assertThat(after.at("/members").findValuesAsText("name"))
                    .hasSize(3)
                    .allMatch(n -> n.startsWith("adopted-"));
            assertThat(E2eEnvironment.status(env.cluster(ns, "adopted")).get("clusterID"))
                    .isEqualTo(clusterId);
            List<String> reasons = env.client().v1().events().inNamespace(ns).list().getItems().stream()
                    .map(Event::getReason)
                    .toList();
            assertThat(reasons).contains("ClusterAdopted", "AdoptionComplete");
            assertThat(reasons.stream().filter("ExternalMemberRemoved"::equals))
                    .as("one event per external member")
                    .hasSize(3);
        }
    }

    /** The running cluster outlives an EtcdCluster deleted (foreground) mid-adoption: its member leaves etcd first. */
    @Test
    void anEtcdClusterDeletedMidAdoptionLeavesTheRunningClusterWhole(E2eEnvironment env) throws Exception {
        String ns = env.namespace("adopt-delete");
        List<Pod> external = startExternal(env, ns);
        String hosts = external.stream().map(E2eEnvironment::clientUrl).collect(Collectors.joining(","));
        List<String> urls =
                IntStream.range(0, 3).mapToObj(i -> clientUrl(ns, i)).toList();
        env.createCluster(
                ns,
                "half",
                Map.of(
                        "replicas",
                        1,
                        "version",
                        "3.5.16",
                        "storage",
                        Map.of("size", "256Mi"),
                        "bootstrap",
                        Map.of("existing", Map.of("clientUrls", urls))));
        Await.until(
                "4 voters, removal awaited",
                Duration.ofMinutes(4),
                () -> EtcdStatus.condition(env.cluster(ns, "half"), "Progressing")
                        .filter(p -> "AdoptionAwaitingRemoval".equals(p.get("reason")))
                        .isPresent());
        assertThat(JSON.readTree(env.etcdctl(hosts, "member", "list", "-w", "json"))
                        .at("/members"))
                .hasSize(4);
        // foreground: the EtcdCluster stays, being deleted, until its members are gone (docs/operations.md)
        env.client()
                .genericKubernetesResources(E2eEnvironment.CLUSTERS)
                .inNamespace(ns)
                .withName("half")
                .withPropagationPolicy(DeletionPropagation.FOREGROUND)
                .delete();
        Await.until(
                "the EtcdMember gone",
                Duration.ofMinutes(2),
                () -> env.members(ns, "half").isEmpty());
        JsonNode after = JSON.readTree(env.etcdctl(hosts, "member", "list", "-w", "json"));
        assertThat(after.at("/members").findValuesAsText("name"))
                .as("the running cluster's own members, and only them")
                .containsExactlyInAnyOrder("ext-0", "ext-1", "ext-2");
        env.etcdctl(hosts, "put", "after-delete", "still-writable");
        assertThat(env.etcdctl(hosts, "get", "after-delete", "--print-value-only")
                        .strip())
                .isEqualTo("still-writable");
    }

    private static String clientUrl(String ns, int i) {
        return "http://ext-" + i + ".ext." + ns + ".svc:2379";
    }

    /** Three etcd Pods and the headless Service their names resolve under. */
    private static List<Pod> startExternal(E2eEnvironment env, String ns) {
        env.client()
                .services()
                .inNamespace(ns)
                .resource(new ServiceBuilder()
                        .withNewMetadata()
                        .withName("ext")
                        .endMetadata()
                        .withNewSpec()
                        .withClusterIP("None")
                        .withPublishNotReadyAddresses(true)
                        .withSelector(Map.of("app", "ext"))
                        .addNewPort()
                        .withName("client")
                        .withPort(2379)
                        .endPort()
                        .addNewPort()
                        .withName("peer")
                        .withPort(2380)
                        .endPort()
                        .endSpec()
                        .build())
                .create();
        String domain = ".ext." + ns + ".svc";
        String initial = IntStream.range(0, 3)
                .mapToObj(i -> "ext-" + i + "=http://ext-" + i + domain + ":2380")
                .collect(Collectors.joining(","));
        for (int i = 0; i < 3; i++) {
            env.client()
                    .pods()
                    .inNamespace(ns)
                    .resource(etcdPod(i, domain, initial))
                    .create();
        }
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String name = "ext-" + i;
            pods.add(Await.value(
                    name + " Ready",
                    Duration.ofMinutes(2),
                    () -> Optional.ofNullable(env.client()
                                    .pods()
                                    .inNamespace(ns)
                                    .withName(name)
                                    .get())
                            .filter(p -> p.getStatus().getConditions().stream()
                                    .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))));
        }
        return pods;
    }

    private static Pod etcdPod(int i, String domain, String initialCluster) {
        String name = "ext-" + i;
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(Map.of("app", "ext"))
                .endMetadata()
                .withNewSpec()
                .withHostname(name)
                .withSubdomain("ext")
                .withRestartPolicy("Never") // a removed member's etcd exits; it must not come back
                .withTerminationGracePeriodSeconds(5L)
                .addNewContainer()
                .withName("etcd")
                .withImage(IMAGE)
                .withCommand("/usr/local/bin/etcd")
                .withArgs(
                        "--name=" + name,
                        "--data-dir=/var/lib/etcd",
                        "--listen-client-urls=http://0.0.0.0:2379",
                        "--advertise-client-urls=http://" + name + domain + ":2379",
                        "--listen-peer-urls=http://0.0.0.0:2380",
                        "--initial-advertise-peer-urls=http://" + name + domain + ":2380",
                        "--initial-cluster=" + initialCluster,
                        "--initial-cluster-token=external",
                        "--initial-cluster-state=new")
                .withNewReadinessProbe()
                .withNewHttpGet()
                .withPath("/health")
                .withNewPort(2379)
                .endHttpGet()
                .withPeriodSeconds(1)
                .withFailureThreshold(3)
                .endReadinessProbe()
                .addNewVolumeMount()
                .withName("data")
                .withMountPath("/var/lib/etcd")
                .endVolumeMount()
                .endContainer()
                .addNewVolume()
                .withName("data")
                .withNewEmptyDir()
                .endEmptyDir()
                .endVolume()
                .endSpec()
                .build();
    }

    /** The name of the member that leads, as the endpoints' status reports it. */
    private static String leaderName(E2eEnvironment env, String hosts) throws IOException {
        JsonNode status = JSON.readTree(env.etcdctl(hosts, "endpoint", "status", "-w", "json"));
        long leader = status.get(0).at("/Status/leader").asLong();
        JsonNode members = JSON.readTree(env.etcdctl(hosts, "member", "list", "-w", "json"));
        for (JsonNode m : members.at("/members")) {
            if (m.get("ID").asLong() == leader) {
                return m.get("name").asText();
            }
        }
        return "none";
    }
}
