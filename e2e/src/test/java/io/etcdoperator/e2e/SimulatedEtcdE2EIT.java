package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.localkube.LocalKubernetesOptions;
import io.fabric8.kubernetes.api.model.Pod;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The real operator on local Kubernetes in simulated-etcd mode (the base of SimulatedFleetBench): three clusters
 * reach READY=3 without one etcd process, and etcd's own etcdctl sees three distinct 3-voter clusters.
 */
class SimulatedEtcdE2EIT {

    private static final Path WORK =
            Path.of("target", "sim-e2e-" + ProcessHandle.current().pid()).toAbsolutePath();
    private static final Pattern CLUSTER_ID = Pattern.compile("\"cluster_id\":(\\d+)");

    @Test
    void threeSimulatedClustersReachReadyThreeWithTheRealOperator() throws Exception {
        try (E2eEnvironment env =
                E2eEnvironment.start(WORK, LocalKubernetesOptions.defaults().withSimulatedEtcd())) {
            List<String> names = List.of("sim-a", "sim-b", "sim-c");
            for (String name : names) {
                env.namespace(name);
                env.createCluster(
                        name,
                        name,
                        Map.of(
                                "replicas",
                                3,
                                "version",
                                "3.5.16",
                                "storage",
                                Map.of("medium", "Memory", "size", "256Mi")));
            }
            Set<String> clusterIds = new HashSet<>();
            for (String name : names) {
                env.awaitReady(name, name, 3, Duration.ofMinutes(3));
                for (Pod pod : env.memberPods(name, name)) {
                    assertThat(env.kube().nodes())
                            .as("no process for " + pod.getMetadata().getName())
                            .noneMatch(node -> node.runs(name, pod.getMetadata().getName()));
                }
                String endpoints = env.endpoints(name, name);
                List<String[]> members = env.etcdctl(endpoints, "member", "list")
                        .strip()
                        .lines()
                        .map(line -> line.split(",\\s*"))
                        .toList();
                assertThat(members)
                        .as(name + " members per etcdctl")
                        .hasSize(3)
                        .allSatisfy(f -> assertThat(List.of(f[1], f[5])).containsExactly("started", "false"));
                Matcher id = CLUSTER_ID.matcher(env.etcdctl(endpoints, "-w", "json", "member", "list"));
                assertThat(id.find()).isTrue();
                clusterIds.add(id.group(1));
            }
            assertThat(clusterIds)
                    .as("one simulated etcd cluster per EtcdCluster")
                    .hasSize(3);
        }
    }
}
