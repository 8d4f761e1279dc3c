package io.etcdoperator.localkube;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.localkube.node.ContainerRootfs;
import io.etcdoperator.localkube.node.ImageCatalogue;
import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pods from real images on the simulated nodes: runc runs them with the Pod's security context, and each field a
 * kubelet enforces is shown to be enforced (by a process that reports what it sees, or fails where it must).
 */
class RuncContainersIT {

    private static final String NS = "runc-it";
    private static final String SHELL = "local/shell:test";
    private static final String ETCD = "quay.io/coreos/etcd:v3.5.16";

    private static LocalKubernetes cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void startCluster() throws IOException, InterruptedException {
        Path workDir = Path.of("target", "runc-it").toAbsolutePath();
        LocalKubernetesIT.deleteRecursively(workDir);
        Map<String, Path> tools = new LinkedHashMap<>();
        for (String tool : List.of(
                "/bin/sh",
                "/usr/bin/id",
                "/usr/bin/touch",
                "/usr/bin/cat",
                "/usr/bin/tail",
                "/usr/bin/grep",
                "/usr/bin/ls")) {
            tools.put(tool, Path.of(tool).toRealPath());
        }
        ImageCatalogue images = ImageCatalogue.withContainerEtcdImages(workDir.resolve("images"))
                .rootfs(SHELL, ContainerRootfs.assemble(workDir.resolve("images/shell"), tools, List.of("/bin/sh")))
                .build();
        cluster = LocalKubernetes.start(
                workDir.resolve("cluster"),
                LocalKubernetesOptions.defaults().withNodes(1).withImages(images));
        client = cluster.client();
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(NS)
                        .endMetadata()
                        .build())
                .create();
        Eventually.await(
                "default service account",
                Duration.ofSeconds(30),
                () -> client.serviceAccounts()
                        .inNamespace(NS)
                        .withName("default")
                        .get());
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void runsAsTheUserAndGroupsAskedWithFsGroupOnVolumes() {
        Pod pod = shell("ids", "id -u; id -g; id -G; touch /data/written && ls -ln /data", null);
        pod.getSpec()
                .setSecurityContext(new PodSecurityContextBuilder()
                        .withRunAsUser(1234L)
                        .withRunAsGroup(2345L)
                        .withFsGroup(3456L)
                        .build());
        ContainerStateTerminated done = run(pod);

        assertThat(done.getExitCode()).as(log("ids")).isZero();
        List<String> lines = log("ids").lines().toList();
        assertThat(lines.get(0)).isEqualTo("1234");
        assertThat(lines.get(1)).isEqualTo("2345");
        assertThat(lines.get(2).split(" ")).contains("3456");
        assertThat(lines)
                .anySatisfy(line -> assertThat(line).contains("1234 3456").endsWith("written"));
    }

    @Test
    void readOnlyRootFilesystemRefusesWrites() {
        ContainerStateTerminated readOnly = run(shell(
                "ro-root",
                "touch /written",
                new SecurityContextBuilder().withReadOnlyRootFilesystem(true).build()));
        ContainerStateTerminated writable = run(shell(
                "rw-root",
                "touch /written",
                new SecurityContextBuilder().withReadOnlyRootFilesystem(false).build()));

        assertThat(readOnly.getExitCode()).isNotZero();
        assertThat(log("ro-root")).contains("Read-only file system");
        assertThat(writable.getExitCode()).isZero();
    }

    @Test
    void droppedCapabilitiesAndNoPrivilegeEscalation() {
        run(shell("caps-default", "grep -E '^(CapEff|NoNewPrivs)' /proc/self/status", null));
        run(shell(
                "caps-dropped",
                "grep -E '^(CapEff|NoNewPrivs)' /proc/self/status",
                new SecurityContextBuilder()
                        .withCapabilities(new Capabilities(List.of(), List.of("ALL")))
                        .withAllowPrivilegeEscalation(false)
                        .build()));

        assertThat(log("caps-default")).contains("NoNewPrivs:\t0").doesNotContain("CapEff:\t0000000000000000");
        assertThat(log("caps-dropped")).contains("CapEff:\t0000000000000000").contains("NoNewPrivs:\t1");
    }

    @Test
    void memoryLimitIsEnforcedByTheCgroup() {
        Pod pod = shell("hog", "tail /dev/zero", null);
        pod.getSpec()
                .getContainers()
                .getFirst()
                .setResources(new ResourceRequirementsBuilder()
                        .addToLimits("memory", new Quantity("32Mi"))
                        .build());

        ContainerStateTerminated terminated = run(pod);
        assertThat(terminated.getExitCode()).isEqualTo(137);
        assertThat(terminated.getReason())
                .as("as a kubelet reports a kill by the cgroup's OOM killer")
                .isEqualTo("OOMKilled");
    }

    @Test
    void exitCode137WithoutTheOomKillerIsAnError() {
        Pod pod = shell("exit-137", "exit 137", null);
        pod.getSpec()
                .getContainers()
                .getFirst()
                .setResources(new ResourceRequirementsBuilder()
                        .addToLimits("memory", new Quantity("32Mi"))
                        .build());

        ContainerStateTerminated terminated = run(pod);
        assertThat(terminated.getExitCode()).isEqualTo(137);
        assertThat(terminated.getReason()).isEqualTo("Error");
    }

    @Test
    void runAsNonRootRefusesARootImage() {
        client.pods()
                .inNamespace(NS)
                .resource(shell(
                        "nonroot",
                        "id -u",
                        new SecurityContextBuilder().withRunAsNonRoot(true).build()))
                .create();

        String reason =
                Eventually.await("CreateContainerConfigError", Duration.ofSeconds(30), () -> waitingReason("nonroot"));
        assertThat(reason).isEqualTo("CreateContainerConfigError");
    }

    @Test
    void serviceAccountTokenIsMountedReadableByTheUser() {
        Pod pod = shell(
                "token",
                "cat /var/run/secrets/kubernetes.io/serviceaccount/namespace; echo; "
                        + "test -s /var/run/secrets/kubernetes.io/serviceaccount/token && echo token-present",
                null);
        pod.getSpec()
                .setSecurityContext(new PodSecurityContextBuilder()
                        .withRunAsUser(65532L)
                        .withFsGroup(65532L)
                        .build());

        assertThat(run(pod).getExitCode()).as(log("token")).isZero();
        assertThat(log("token")).contains(NS).contains("token-present");
    }

    @Test
    void etcdFromItsImageServesAsNonRootOnAReadOnlyRoot() throws Exception {
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName("etcd")
                .endMetadata()
                .withNewSpec()
                .withNewSecurityContext()
                .withRunAsUser(65532L)
                .withRunAsGroup(65532L)
                .withFsGroup(65532L)
                .withRunAsNonRoot(true)
                .endSecurityContext()
                .addNewContainer()
                .withName("etcd")
                .withImage(ETCD)
                .withArgs(
                        "--data-dir=/var/lib/etcd/data",
                        "--listen-client-urls=http://0.0.0.0:2379",
                        "--advertise-client-urls=http://127.0.0.1:2379")
                .withSecurityContext(new SecurityContextBuilder()
                        .withReadOnlyRootFilesystem(true)
                        .withAllowPrivilegeEscalation(false)
                        .withCapabilities(new Capabilities(List.of(), List.of("ALL")))
                        .build())
                .addNewVolumeMount()
                .withName("data")
                .withMountPath("/var/lib/etcd")
                .endVolumeMount()
                .withNewReadinessProbe()
                .withNewHttpGet()
                .withPath("/health")
                .withNewPort(2379)
                .endHttpGet()
                .withPeriodSeconds(1)
                .endReadinessProbe()
                .endContainer()
                .addNewVolume()
                .withName("data")
                .withNewEmptyDir()
                .endEmptyDir()
                .endVolume()
                .endSpec()
                .build();
        client.pods().inNamespace(NS).resource(pod).create();

        Pod ready = Eventually.await("etcd ready", Duration.ofSeconds(60), () -> {
            Pod current = client.pods().inNamespace(NS).withName("etcd").get();
            var statuses = current.getStatus().getContainerStatuses();
            return statuses != null
                            && !statuses.isEmpty()
                            && statuses.getFirst().getReady()
                    ? current
                    : null;
        });
        HttpResponse<String> health = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(
                                        URI.create("http://" + ready.getStatus().getPodIP() + ":2379/health"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(health.body()).contains("\"health\":\"true\"");
    }

    @Test
    void unknownImageIsAPullFailure() {
        Pod pod = shell("unknown", "true", null);
        pod.getSpec().getContainers().getFirst().setImage("local/nowhere:1");
        client.pods().inNamespace(NS).resource(pod).create();

        String reason = Eventually.await("ErrImagePull", Duration.ofSeconds(30), () -> waitingReason("unknown"));
        assertThat(reason).isIn("ErrImagePull", "ImagePullBackOff");
    }

    private static Pod shell(String name, String script, SecurityContext context) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .addNewContainer()
                .withName("main")
                .withImage(SHELL)
                .withCommand("/bin/sh", "-c", script)
                .withSecurityContext(context)
                .addNewVolumeMount()
                .withName("data")
                .withMountPath("/data")
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

    private static ContainerStateTerminated run(Pod pod) {
        client.pods().inNamespace(NS).resource(pod).create();
        String name = pod.getMetadata().getName();
        return Eventually.await(name + " terminated", Duration.ofSeconds(60), () -> {
            var statuses = client.pods()
                    .inNamespace(NS)
                    .withName(name)
                    .get()
                    .getStatus()
                    .getContainerStatuses();
            return statuses == null
                            || statuses.isEmpty()
                            || statuses.getFirst().getState().getTerminated() == null
                    ? null
                    : statuses.getFirst().getState().getTerminated();
        });
    }

    private static String log(String pod) {
        return client.pods().inNamespace(NS).withName(pod).getLog();
    }

    /**
     * The first container's waiting reason once the node has tried to start it; null before. The first status may
     * be reported before the first attempt, as ContainerCreating, which answers nothing yet.
     */
    private static String waitingReason(String pod) {
        var statuses =
                client.pods().inNamespace(NS).withName(pod).get().getStatus().getContainerStatuses();
        if (statuses == null
                || statuses.isEmpty()
                || statuses.getFirst().getState().getWaiting() == null) {
            return null;
        }
        String reason = statuses.getFirst().getState().getWaiting().getReason();
        return "ContainerCreating".equals(reason) ? null : reason;
    }
}
