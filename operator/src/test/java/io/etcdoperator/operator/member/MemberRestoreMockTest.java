package io.etcdoperator.operator.member;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.PvcLocation;
import io.etcdoperator.api.v1alpha2.RestoreSpec;
import io.etcdoperator.api.v1alpha2.SnapshotLocation;
import io.etcdoperator.api.v1alpha2.StorageSpec;
import io.etcdoperator.operator.MockCrds;
import io.etcdoperator.operator.TestClusters;
import io.etcdoperator.operator.cluster.EtcdDialer;
import io.etcdoperator.operator.config.OperatorConfig;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.resources.AgentImage;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The member pass for a seed that restores a snapshot: its Pod, and the progress it reports. */
@EnableKubernetesMockClient(crud = true)
class MemberRestoreMockTest {

    static KubernetesClient client;
    private static final String NS = "default";
    private static final AgentImage AGENT = new AgentImage("operator:e2e", "/srv/etcd-tools");

    @BeforeEach
    void setUp() {
        MockCrds.install(client);
    }

    private MemberReconcile pass(Optional<AgentImage> agent) {
        Clock clock = Clock.systemUTC();
        var config = new OperatorConfig(
                new InetSocketAddress(0),
                new InetSocketAddress(0),
                false,
                NS,
                "test",
                "cluster.local",
                agent.map(AgentImage::image),
                OperatorConfig.DEFAULT_ETCD_REPOSITORY,
                List.of());
        return new MemberReconcile(
                client,
                new EtcdDialer(client, null, Duration.ofSeconds(1)),
                new EventRecorder(client, "test", clock),
                config,
                clock,
                agent);
    }

    /** A new cluster (no cluster ID yet) whose seed restores from a PVC. */
    private EtcdMember restoringSeed(String cluster) {
        client.resource(TestClusters.cluster(NS, cluster, 1, null)).create();

        EtcdMember member = new EtcdMember();
        member.getMetadata().setName(cluster + "-seed1");
        member.getMetadata().setNamespace(NS);
        member.getMetadata().setLabels(Map.of(EtcdOperatorApi.LABEL_CLUSTER, cluster));
        EtcdMemberSpec spec = new EtcdMemberSpec();
        spec.setClusterName(cluster);
        spec.setVersion("3.5.16");
        StorageSpec storage = new StorageSpec();
        storage.setSize(new Quantity("1Gi"));
        spec.setStorage(storage);
        spec.setBootstrap(true);
        spec.setInitialCluster(cluster + "-seed1=http://" + cluster + "-seed1." + cluster + "." + NS + ".svc:2380");
        spec.setClusterToken("token");
        PvcLocation pvc = new PvcLocation();
        pvc.setClaimName("backups");
        pvc.setSubPath("prod/before-upgrade.db");
        SnapshotLocation source = new SnapshotLocation();
        source.setPvc(pvc);
        RestoreSpec restore = new RestoreSpec();
        restore.setSource(source);
        spec.setRestore(restore);
        member.setSpec(spec);
        return client.resource(member).create();
    }

    private EtcdMember member(String name) {
        return client.resources(EtcdMember.class).inNamespace(NS).withName(name).get();
    }

    private String readyReason(String name) {
        return Conditions.find(member(name).getStatus().getConditions(), Conditions.READY)
                .orElseThrow()
                .getReason();
    }

    private List<Event> events(String reason) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()))
                .toList();
    }

    @Test
    void seedPodRestoresTheSnapshotInAnInitContainerRunByTheOperatorImage() {
        EtcdMember seed = restoringSeed("restored");

        pass(Optional.of(AGENT)).reconcile(seed);

        Pod pod = client.pods().inNamespace(NS).withName("restored-seed1").get();
        assertThat(pod.getSpec().getInitContainers())
                .extracting(c -> c.getName())
                .containsExactly("etcd-guard", "restore");
        assertThat(pod.getSpec().getInitContainers().getLast()).satisfies(c -> {
            assertThat(c.getImage()).isEqualTo("operator:e2e");
            assertThat(c.getArgs()).contains("--etcd-tools-dir=/srv/etcd-tools", "--etcd-version=3.5.16");
        });
        assertThat(events("RestoringSnapshot"))
                .singleElement()
                .satisfies(e -> assertThat(e.getMessage()).contains("pvc backups/prod/before-upgrade.db"));
    }

    @Test
    void withoutAnOperatorImageTheSeedWaitsWithANamedReasonAndOneWarning() {
        EtcdMember seed = restoringSeed("noagent");
        MemberReconcile pass = pass(Optional.empty());

        pass.reconcile(seed);
        pass.reconcile(member("noagent-seed1"));

        assertThat(client.pods().inNamespace(NS).withName("noagent-seed1").get())
                .isNull();
        assertThat(readyReason("noagent-seed1")).isEqualTo("RestoreNeedsOperatorImage");
        assertThat(events("RestoreNeedsOperatorImage")).hasSize(1);
    }

    @Test
    void aFailedRestoreIsReportedWithTheAgentsReasonOnceNotItsLogs() {
        EtcdMember seed = restoringSeed("failing");
        MemberReconcile pass = pass(Optional.of(AGENT));
        pass.reconcile(seed);
        String report = "{\"result\":\"failed\",\"reason\":\"ChecksumMismatch\",\"message\":\"sha256 differs\"}";
        client.pods().inNamespace(NS).withName("failing-seed1").editStatus(p -> {
            p.setStatus(new PodStatusBuilder()
                    .withPhase("Pending")
                    .withInitContainerStatuses(new ContainerStatusBuilder()
                            .withName("restore")
                            .withRestartCount(1)
                            .withState(new ContainerStateBuilder()
                                    .withNewWaiting()
                                    .withReason("CrashLoopBackOff")
                                    .endWaiting()
                                    .build())
                            .withLastState(new ContainerStateBuilder()
                                    .withNewTerminated()
                                    .withExitCode(1)
                                    .withMessage(report)
                                    .endTerminated()
                                    .build())
                            .build())
                    .build());
            return p;
        });

        pass.reconcile(member("failing-seed1"));
        pass.reconcile(member("failing-seed1"));

        var ready = Conditions.find(member("failing-seed1").getStatus().getConditions(), Conditions.READY)
                .orElseThrow();
        assertThat(ready.getReason()).isEqualTo("RestoreFailed");
        assertThat(ready.getMessage())
                .contains("ChecksumMismatch: sha256 differs")
                .contains("attempt 2");
        assertThat(events("RestoreFailed")).hasSize(1);
    }

    @Test
    void aRunningRestoreIsProgressAndAFinishedOneHandsOverToEtcdReadiness() {
        EtcdMember seed = restoringSeed("running");
        MemberReconcile pass = pass(Optional.of(AGENT));
        pass.reconcile(seed);
        setRestoreState(
                "running-seed1",
                new ContainerStateBuilder().withNewRunning().endRunning().build());

        pass.reconcile(member("running-seed1"));
        assertThat(readyReason("running-seed1")).isEqualTo("RestoringSnapshot");

        setRestoreState(
                "running-seed1",
                new ContainerStateBuilder()
                        .withNewTerminated()
                        .withExitCode(0)
                        .endTerminated()
                        .build());
        pass.reconcile(member("running-seed1"));
        assertThat(readyReason("running-seed1")).isEqualTo("PodNotReady");
    }

    private void setRestoreState(String pod, ContainerState state) {
        client.pods().inNamespace(NS).withName(pod).editStatus(p -> {
            p.setStatus(new PodStatusBuilder()
                    .withPhase("Pending")
                    .withInitContainerStatuses(new ContainerStatusBuilder()
                            .withName("restore")
                            .withRestartCount(0)
                            .withState(state)
                            .build())
                    .build());
            return p;
        });
    }
}
