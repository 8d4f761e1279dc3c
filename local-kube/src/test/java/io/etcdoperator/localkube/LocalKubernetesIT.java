package io.etcdoperator.localkube;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.localkube.network.FreshJvmLookup;
import io.etcdoperator.localkube.node.ImageCatalogue;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** One local cluster (control plane + 3 simulated nodes) running etcd and shell Pods as local processes. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalKubernetesIT {

    private static final String NS = "nodes-it";
    private static final String ETCD35 = "quay.io/coreos/etcd:v3.5.16";
    private static final String SHELL = "busybox:1.36";
    private static final Duration POD_READY = Duration.ofSeconds(60);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private static LocalKubernetes cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void startCluster() throws InterruptedException, IOException {
        Path workDir = Path.of("target", "local-kubernetes-it").toAbsolutePath();
        deleteRecursively(workDir);
        LocalKubernetesOptions options = LocalKubernetesOptions.defaults()
                .withZones(List.of("zone-a", "zone-b"))
                .withImages(ImageCatalogue.withEtcdImages().host(SHELL).build());
        cluster = LocalKubernetes.start(workDir, options);
        System.out.printf(
                "local cluster with 3 nodes ready in %d ms (%s)%n",
                cluster.timeToReady().toMillis(), cluster.podNetwork());
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
            try (Stream<String> namespaces = HostCommandOutput.lines("ip", "netns", "list")) {
                assertThat(namespaces.filter(line -> line.startsWith(
                                cluster.podNetwork().split(" ")[1].replace("br", "-"))))
                        .as("network namespaces left behind")
                        .isEmpty();
            }
        }
    }

    @Test
    @Order(1)
    void registersReadyNodesWithZonesAndLeases() {
        var nodes = client.nodes().list().getItems();
        assertThat(nodes).hasSize(3);
        assertThat(nodes).allSatisfy(node -> {
            assertThat(node.getMetadata().getLabels())
                    .containsKey("topology.kubernetes.io/zone")
                    .containsEntry("kubernetes.io/hostname", node.getMetadata().getName());
            assertThat(node.getStatus().getConditions()).anySatisfy(condition -> {
                assertThat(condition.getType()).isEqualTo("Ready");
                assertThat(condition.getStatus()).isEqualTo("True");
            });
            assertThat(client.leases()
                            .inNamespace("kube-node-lease")
                            .withName(node.getMetadata().getName())
                            .get()
                            .getSpec()
                            .getRenewTime())
                    .isNotNull();
        });
    }

    @Test
    @Order(2)
    void etcdPodOnProvisionedVolumeIsReadyAndReachable() throws Exception {
        client.persistentVolumeClaims()
                .inNamespace(NS)
                .resource(new PersistentVolumeClaimBuilder()
                        .withNewMetadata()
                        .withName("data-solo")
                        .endMetadata()
                        .withNewSpec()
                        .withAccessModes("ReadWriteOnce")
                        .withNewResources()
                        .addToRequests("storage", new Quantity("1Gi"))
                        .endResources()
                        .endSpec()
                        .build())
                .create();
        Instant created = Instant.now();
        client.pods()
                .inNamespace(NS)
                .resource(etcdPod("solo", "http://$(POD_IP):2380", "solo=http://$(POD_IP):2380", "data-solo"))
                .create();

        Pod ready = awaitReady("solo");
        System.out.printf(
                "etcd pod on a PVC ready %d ms after creation%n",
                Duration.between(created, Instant.now()).toMillis());
        String ip = ready.getStatus().getPodIP();
        assertThat(ip).startsWith("10.234.");
        assertThat(ready.getStatus().getHostIP()).isEqualTo("127.0.0.1");
        assertThat(get("http://" + ip + ":2379/health")).contains("\"health\":\"true\"");

        String volumeName = client.persistentVolumeClaims()
                .inNamespace(NS)
                .withName("data-solo")
                .get()
                .getSpec()
                .getVolumeName();
        PersistentVolume volume =
                client.persistentVolumes().withName(volumeName).get();
        assertThat(Path.of(volume.getSpec().getHostPath().getPath()).resolve("member/wal"))
                .isDirectory();
    }

    @Test
    @Order(3)
    void killedContainerRestartsWithTheSameIp() throws Exception {
        String ip =
                client.pods().inNamespace(NS).withName("solo").get().getStatus().getPodIP();

        cluster.faults().killContainers(NS, "solo");

        Pod restarted = Eventually.await("solo restarted and ready", POD_READY, () -> {
            Pod pod = client.pods().inNamespace(NS).withName("solo").get();
            return pod.getStatus().getContainerStatuses().getFirst().getRestartCount() >= 1 && ready(pod) ? pod : null;
        });
        assertThat(restarted.getStatus().getPodIP()).isEqualTo(ip);
        ContainerStatus status = restarted.getStatus().getContainerStatuses().getFirst();
        assertThat(status.getLastState().getTerminated().getExitCode()).isEqualTo(137);
        assertThat(get("http://" + ip + ":2379/health")).contains("true");
    }

    @Test
    @Order(4)
    void frozenPodFailsReadinessAndRecoversWhenThawed() {
        cluster.faults().freeze(NS, "solo");
        try {
            Eventually.await(
                    "solo not ready while frozen",
                    Duration.ofSeconds(30),
                    () -> !ready(client.pods().inNamespace(NS).withName("solo").get()));
        } finally {
            cluster.faults().thaw(NS, "solo");
        }
        awaitReady("solo");
    }

    @Test
    @Order(5)
    void cutPodIsUnreachableUntilHealed() throws Exception {
        String ip =
                client.pods().inNamespace(NS).withName("solo").get().getStatus().getPodIP();

        cluster.faults().cutNetwork(NS, "solo");
        boolean reachable;
        try {
            reachable = reachable(ip);
        } finally {
            cluster.faults().healNetwork(NS, "solo");
        }

        assertThat(reachable).as("reachable while cut").isFalse();
        assertThat(Eventually.await("solo reachable after heal", Duration.ofSeconds(20), () -> reachable(ip)))
                .isTrue();
    }

    @Test
    @Order(6)
    void threeEtcdPodsFormAClusterByTheirDnsNames() throws Exception {
        client.services()
                .inNamespace(NS)
                .resource(new ServiceBuilder()
                        .withNewMetadata()
                        .withName("peers")
                        .endMetadata()
                        .withNewSpec()
                        .withClusterIP("None")
                        .withPublishNotReadyAddresses(true)
                        .addToSelector("app", "trio")
                        .addNewPort()
                        .withName("peer")
                        .withPort(2380)
                        .withProtocol("TCP")
                        .endPort()
                        .endSpec()
                        .build())
                .create();
        String domain = ".peers." + NS + ".svc.cluster.local";
        StringBuilder initial = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            initial.append(i == 0 ? "" : ",")
                    .append("trio-")
                    .append(i)
                    .append("=http://trio-")
                    .append(i)
                    .append(domain)
                    .append(":2380");
        }
        for (int i = 0; i < 3; i++) {
            Pod pod = etcdPod("trio-" + i, "http://$(POD_NAME)" + domain + ":2380", initial.toString(), null);
            pod.getSpec().setHostname("trio-" + i);
            pod.getSpec().setSubdomain("peers");
            pod.getMetadata().setLabels(Map.of("app", "trio"));
            client.pods().inNamespace(NS).resource(pod).create();
        }

        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pods.add(awaitReady("trio-" + i));
        }
        String members = post("http://" + pods.getFirst().getStatus().getPodIP() + ":2379/v3/cluster/member/list");
        assertThat(members).contains("trio-0" + domain, "trio-1" + domain, "trio-2" + domain);
        assertThat(pods.stream().map(pod -> pod.getSpec().getNodeName()).distinct())
                .hasSize(3);

        for (Pod pod : pods) {
            String name = pod.getMetadata().getName() + domain;
            assertThat(resolveWithHostsFile(name)).isEqualTo(pod.getStatus().getPodIP());
        }
    }

    @Test
    @Order(7)
    void unknownImageIsReportedAsAPullFailure() {
        Pod pod = shellPod("no-image", "Always", "true");
        pod.getSpec().getContainers().getFirst().setImage("registry.invalid/nothing:1");
        client.pods().inNamespace(NS).resource(pod).create();
        Set<String> reasons = new HashSet<>();
        Eventually.await("ErrImagePull then ImagePullBackOff", Duration.ofSeconds(30), () -> {
            var status = client.pods()
                    .inNamespace(NS)
                    .withName("no-image")
                    .get()
                    .getStatus()
                    .getContainerStatuses();
            if (status != null
                    && !status.isEmpty()
                    && status.getFirst().getState().getWaiting() != null) {
                reasons.add(status.getFirst().getState().getWaiting().getReason());
            }
            return reasons.containsAll(List.of("ErrImagePull", "ImagePullBackOff"));
        });
        assertThat(client.pods()
                        .inNamespace(NS)
                        .withName("no-image")
                        .get()
                        .getStatus()
                        .getPhase())
                .isEqualTo("Pending");
    }

    @Test
    @Order(8)
    void crashingContainerBacksOff() {
        client.pods()
                .inNamespace(NS)
                .resource(shellPod("crasher", "Always", "echo crashing; exit 3"))
                .create();

        Set<String> reasons = new HashSet<>();
        ContainerStatus status = Eventually.await("restarts and CrashLoopBackOff", Duration.ofSeconds(40), () -> {
            ContainerStatus current = client.pods()
                    .inNamespace(NS)
                    .withName("crasher")
                    .get()
                    .getStatus()
                    .getContainerStatuses()
                    .getFirst();
            if (current.getState().getWaiting() != null) {
                reasons.add(current.getState().getWaiting().getReason());
            }
            return current.getRestartCount() >= 2 && reasons.contains("CrashLoopBackOff") ? current : null;
        });
        assertThat(status.getLastState().getTerminated().getExitCode()).isEqualTo(3);
        assertThat(status.getLastState().getTerminated().getReason()).isEqualTo("Error");
        assertThat(client.pods()
                        .inNamespace(NS)
                        .withName("crasher")
                        .get()
                        .getStatus()
                        .getPhase())
                .isEqualTo("Running");
    }

    @Test
    @Order(8)
    void terminationMessageFromTheFileOrFromTheLogOnError() {
        client.pods()
                .inNamespace(NS)
                .resource(shellPod(
                        "reporter", "Never", "echo noise; printf '{\"result\":\"stored\"}' > /dev/termination-log"))
                .create();
        Pod failing = shellPod("failing-reporter", "Never", "echo first; echo 'last words'; exit 2");
        failing.getSpec().getContainers().getFirst().setTerminationMessagePolicy("FallbackToLogsOnError");
        client.pods().inNamespace(NS).resource(failing).create();

        assertThat(terminated("reporter").getMessage()).isEqualTo("{\"result\":\"stored\"}");
        assertThat(terminated("failing-reporter").getMessage()).isEqualTo("first\nlast words");
    }

    private static ContainerStateTerminated terminated(String pod) {
        return Eventually.await(pod + " terminated", Duration.ofSeconds(40), () -> {
            var statuses = client.pods()
                    .inNamespace(NS)
                    .withName(pod)
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

    @Test
    @Order(9)
    void jobCompletes() {
        Job job = new JobBuilder()
                .withNewMetadata()
                .withName("once")
                .endMetadata()
                .withNewSpec()
                .withBackoffLimit(0)
                .withNewTemplate()
                .withSpec(shellPod("unused", "Never", "echo finished").getSpec())
                .endTemplate()
                .endSpec()
                .build();
        client.batch().v1().jobs().inNamespace(NS).resource(job).create();

        Job done = Eventually.await("job succeeded", Duration.ofSeconds(60), () -> {
            Job current =
                    client.batch().v1().jobs().inNamespace(NS).withName("once").get();
            return current.getStatus() != null
                            && Integer.valueOf(1).equals(current.getStatus().getSucceeded())
                    ? current
                    : null;
        });
        assertThat(done.getStatus().getConditions())
                .anySatisfy(c -> assertThat(c.getType()).isEqualTo("Complete"));
        Pod pod = client.pods()
                .inNamespace(NS)
                .withLabel("job-name", "once")
                .list()
                .getItems()
                .getFirst();
        assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
    }

    @Test
    @Order(10)
    void downwardApiVolumeFollowsTheAnnotations() {
        Pod pod = shellPod(
                "annotated",
                "Always",
                String.join(
                        "; ",
                        "until grep -q 'lk-it/probe=\"two\"' /lk-it/podinfo/annotations; do sleep 0.2; done",
                        "echo seen-two",
                        "exec sleep 3600"));
        pod.getMetadata().setAnnotations(Map.of("lk-it/probe", "one"));
        pod.getSpec()
                .getContainers()
                .getFirst()
                .setVolumeMounts(List.of(new VolumeMountBuilder()
                        .withName("podinfo")
                        .withMountPath("/lk-it/podinfo")
                        .build()));
        pod.getSpec()
                .setVolumes(List.of(new VolumeBuilder()
                        .withName("podinfo")
                        .withNewDownwardAPI()
                        .addNewItem()
                        .withPath("annotations")
                        .withNewFieldRef()
                        .withFieldPath("metadata.annotations")
                        .endFieldRef()
                        .endItem()
                        .endDownwardAPI()
                        .build()));
        client.pods().inNamespace(NS).resource(pod).create();
        awaitReady("annotated");
        assertThat(client.pods().inNamespace(NS).withName("annotated").getLog()).doesNotContain("seen-two");

        client.pods().inNamespace(NS).withName("annotated").edit(p -> {
            p.getMetadata().getAnnotations().put("lk-it/probe", "two");
            return p;
        });
        Eventually.await("the container sees the new annotation in its file", Duration.ofSeconds(20), () -> {
            String text = client.pods().inNamespace(NS).withName("annotated").getLog();
            return text != null && text.contains("seen-two") ? text : null;
        });
        client.pods().inNamespace(NS).withName("annotated").delete();
    }

    @Test
    @Order(10)
    void volumesEnvironmentAndLogsThroughTheApiServer() {
        client.secrets()
                .inNamespace(NS)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName("creds")
                        .endMetadata()
                        .addToStringData("token", "fixture-value")
                        .build())
                .create();
        client.configMaps()
                .inNamespace(NS)
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("settings")
                        .endMetadata()
                        .addToData("greeting", "hello from a configmap")
                        .addToData("ignored", "x")
                        .build())
                .create();
        Pod pod = shellPod(
                "inspector",
                "Always",
                String.join(
                        "; ",
                        "grep ' /lk-it/memory ' /proc/mounts",
                        "cat /lk-it/secret/token-file; echo",
                        "ls /lk-it/config",
                        "cat /lk-it/config/greeting; echo",
                        "echo name=$MY_NAME ns=$MY_NAMESPACE ip=$MY_IP node=$MY_NODE secret=$FROM_SECRET cm=$FROM_CM",
                        "echo expanded=$(MY_NAME_ARG)",
                        "exec sleep 3600"));
        var container = pod.getSpec().getContainers().getFirst();
        container.setEnv(List.of(
                field("MY_NAME", "metadata.name"),
                field("MY_NAMESPACE", "metadata.namespace"),
                field("MY_IP", "status.podIP"),
                field("MY_NODE", "spec.nodeName"),
                new EnvVarBuilder()
                        .withName("FROM_SECRET")
                        .withNewValueFrom()
                        .withNewSecretKeyRef("token", "creds", false)
                        .endValueFrom()
                        .build(),
                new EnvVarBuilder()
                        .withName("FROM_CM")
                        .withNewValueFrom()
                        .withNewConfigMapKeyRef("greeting", "settings", false)
                        .endValueFrom()
                        .build(),
                new EnvVarBuilder()
                        .withName("MY_NAME_ARG")
                        .withValue("$(MY_NAME)-x")
                        .build()));
        container.setVolumeMounts(List.of(
                new VolumeMountBuilder()
                        .withName("memory")
                        .withMountPath("/lk-it/memory")
                        .build(),
                new VolumeMountBuilder()
                        .withName("secret")
                        .withMountPath("/lk-it/secret")
                        .withReadOnly(true)
                        .build(),
                new VolumeMountBuilder()
                        .withName("config")
                        .withMountPath("/lk-it/config")
                        .build()));
        pod.getSpec()
                .setVolumes(List.of(
                        new VolumeBuilder()
                                .withName("memory")
                                .withNewEmptyDir()
                                .withMedium("Memory")
                                .endEmptyDir()
                                .build(),
                        new VolumeBuilder()
                                .withName("secret")
                                .withNewSecret()
                                .withSecretName("creds")
                                .addNewItem()
                                .withKey("token")
                                .withPath("token-file")
                                .endItem()
                                .endSecret()
                                .build(),
                        new VolumeBuilder()
                                .withName("config")
                                .withNewConfigMap()
                                .withName("settings")
                                .addNewItem()
                                .withKey("greeting")
                                .withPath("greeting")
                                .endItem()
                                .endConfigMap()
                                .build()));
        client.pods().inNamespace(NS).resource(pod).create();
        Pod running = awaitReady("inspector");

        String log = Eventually.await("inspector log through the API server", Duration.ofSeconds(20), () -> {
            String text = client.pods().inNamespace(NS).withName("inspector").getLog();
            return text != null && text.contains("expanded=") ? text : null;
        });
        assertThat(log)
                .contains("tmpfs", "fixture-value", "hello from a configmap")
                .contains(
                        "name=inspector ns=" + NS + " ip=" + running.getStatus().getPodIP() + " node="
                                + running.getSpec().getNodeName() + " secret=fixture-value cm=hello from a configmap")
                .contains("expanded=inspector-x")
                .doesNotContain("ignored");
        assertThat(client.pods()
                        .inNamespace(NS)
                        .withName("inspector")
                        .tailingLines(1)
                        .getLog())
                .isEqualTo("expanded=inspector-x\n");
    }

    @Test
    @Order(11)
    void deletedPodGetsSigtermAndItsObjectIsRemoved() throws IOException {
        client.pods()
                .inNamespace(NS)
                .resource(shellPod(
                        "graceful",
                        "Always",
                        "trap 'echo got SIGTERM; exit 0' TERM; echo started; while true; do sleep 0.1; done"))
                .create();
        Pod running = awaitReady("graceful");
        String uid = running.getMetadata().getUid();
        Eventually.await(
                "trap installed",
                Duration.ofSeconds(10),
                () -> client.pods()
                        .inNamespace(NS)
                        .withName("graceful")
                        .getLog()
                        .contains("started"));

        client.pods().inNamespace(NS).withName("graceful").delete();

        Eventually.await(
                "pod object removed",
                Duration.ofSeconds(30),
                () -> client.pods().inNamespace(NS).withName("graceful").get() == null);
        Path log = cluster.workDir().resolve("nodes/pods/" + NS + "_graceful_" + uid + "/logs/shell/0.log");
        assertThat(Files.readString(log)).contains("got SIGTERM");
    }

    @Test
    @Order(12)
    void deletingTheClaimRemovesTheVolumeAndItsDirectory() {
        String volumeName = client.persistentVolumeClaims()
                .inNamespace(NS)
                .withName("data-solo")
                .get()
                .getSpec()
                .getVolumeName();
        Path dir = Path.of(client.persistentVolumes()
                .withName(volumeName)
                .get()
                .getSpec()
                .getHostPath()
                .getPath());
        client.pods().inNamespace(NS).withName("solo").delete();
        client.persistentVolumeClaims().inNamespace(NS).withName("data-solo").delete();

        Eventually.await(
                "volume deleted",
                Duration.ofSeconds(60),
                () -> client.persistentVolumes().withName(volumeName).get() == null);
        assertThat(dir).doesNotExist();
    }

    @Test
    @Order(13)
    void stoppedNodeKillsItsContainersAndRestartsThemWhenItComesBack() {
        Pod pod = shellPod("survivor", "Always", "echo started; exec sleep 3600");
        pod.getSpec()
                .setNodeSelector(
                        Map.of("kubernetes.io/hostname", cluster.node(0).name()));
        client.pods().inNamespace(NS).resource(pod).create();
        awaitReady("survivor");

        cluster.faults().stopNode(0);
        try {
            assertThat(cluster.node(0).running()).isFalse();
        } finally {
            cluster.faults().startNode(0);
        }

        ContainerStatus status = Eventually.await("survivor restarted after the node came back", POD_READY, () -> {
            Pod current = client.pods().inNamespace(NS).withName("survivor").get();
            ContainerStatus container =
                    current.getStatus().getContainerStatuses().getFirst();
            return container.getRestartCount() == 1 && ready(current) ? container : null;
        });
        assertThat(status.getLastState().getTerminated().getExitCode()).isEqualTo(137);
    }

    private static Pod etcdPod(String name, String peerUrl, String initialCluster, String claim) {
        PodBuilder pod = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withTerminationGracePeriodSeconds(5L)
                .addNewContainer()
                .withName("etcd")
                .withImage(ETCD35)
                .withCommand("/usr/local/bin/etcd")
                .withArgs(
                        "--name=$(POD_NAME)",
                        "--data-dir=/var/lib/etcd",
                        "--listen-client-urls=http://0.0.0.0:2379",
                        "--advertise-client-urls=http://$(POD_IP):2379",
                        "--listen-peer-urls=http://0.0.0.0:2380",
                        "--initial-advertise-peer-urls=" + peerUrl,
                        "--initial-cluster=" + initialCluster,
                        "--initial-cluster-state=new")
                .withEnv(field("POD_NAME", "metadata.name"), field("POD_IP", "status.podIP"))
                .withNewReadinessProbe()
                .withNewHttpGet()
                .withPath("/health")
                .withNewPort(2379)
                .endHttpGet()
                .withPeriodSeconds(1)
                .withTimeoutSeconds(1)
                .withFailureThreshold(2)
                .endReadinessProbe()
                .addNewVolumeMount()
                .withName("data")
                .withMountPath("/var/lib/etcd")
                .endVolumeMount()
                .endContainer()
                .endSpec();
        if (claim != null) {
            pod.editSpec()
                    .addNewVolume()
                    .withName("data")
                    .withNewPersistentVolumeClaim()
                    .withClaimName(claim)
                    .endPersistentVolumeClaim()
                    .endVolume()
                    .endSpec();
        } else {
            pod.editSpec()
                    .addNewVolume()
                    .withName("data")
                    .withNewEmptyDir()
                    .endEmptyDir()
                    .endVolume()
                    .endSpec();
        }
        return pod.build();
    }

    private static Pod shellPod(String name, String restartPolicy, String script) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withRestartPolicy(restartPolicy)
                .withTerminationGracePeriodSeconds(10L)
                .addNewContainer()
                .withName("shell")
                .withImage(SHELL)
                .withCommand("/bin/sh", "-c", script)
                .endContainer()
                .endSpec()
                .build();
    }

    private static EnvVar field(String name, String path) {
        return new EnvVarBuilder()
                .withName(name)
                .withNewValueFrom()
                .withNewFieldRef()
                .withFieldPath(path)
                .endFieldRef()
                .endValueFrom()
                .build();
    }

    private static Pod awaitReady(String name) {
        return Eventually.await(name + " ready", POD_READY, () -> {
            Pod pod = client.pods().inNamespace(NS).withName(name).get();
            return pod != null && ready(pod) ? pod : null;
        });
    }

    private static boolean ready(Pod pod) {
        return pod.getStatus() != null
                && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static String get(String url) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(3))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body();
    }

    private static String post(String url) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(3))
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body();
    }

    private static boolean reachable(String ip) {
        try {
            return get("http://" + ip + ":2379/health").contains("true");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Resolves a name in a fresh JVM that reads the cluster's host-wide hosts file, as the operator would. */
    private static String resolveWithHostsFile(String name) throws IOException, InterruptedException {
        return FreshJvmLookup.resolve(cluster.workDir(), List.of("-Djdk.net.hosts.file=" + cluster.hostsFile()), name);
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
