package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.ClientCertManager;
import io.etcdoperator.api.v1alpha2.ClientTls;
import io.etcdoperator.api.v1alpha2.ClusterTls;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.IssuerRef;
import io.etcdoperator.api.v1alpha2.OperatorIssuedTls;
import io.etcdoperator.api.v1alpha2.PeerCertManager;
import io.etcdoperator.api.v1alpha2.PeerTls;
import io.etcdoperator.operator.MockCrds;
import io.etcdoperator.operator.MovableClock;
import io.etcdoperator.operator.TestClusters;
import io.etcdoperator.operator.config.OperatorConfig;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.member.MemberReconcile;
import io.etcdoperator.operator.metrics.ClusterMetrics;
import io.etcdoperator.operator.planner.MemberMaterial;
import io.etcdoperator.operator.reads.CachePass;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.status.Conditions;
import io.etcdoperator.pki.Fingerprint;
import io.etcdoperator.pki.Pem;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The TLS part of the cluster pass on the fabric8 CRUD mock (the kubelet and etcd stood in as in
 * ClusterReconcileMockTest): operator-issued Secrets before any member, Pods recording their material, renewal rolled
 * one member per pass; and the cert-manager gate.
 */
@EnableKubernetesMockClient(crud = true)
class IssuedTlsMockTest {

    static KubernetesClient client;
    static KubernetesMockServer server;
    private static final String NS = "default";
    private static final ResourceDefinitionContext CERTIFICATES = new ResourceDefinitionContext.Builder()
            .withGroup("cert-manager.io")
            .withVersion("v1")
            .withKind("Certificate")
            .withPlural("certificates")
            .withNamespaced(true)
            .build();
    private FakeEtcd etcd;
    private MovableClock clock;
    private EventRecorder events;
    private EtcdDialer dialer;
    private MemberReconcile memberPass;

    @BeforeEach
    void setUp() throws IOException {
        MockCrds.install(client);
        etcd = new FakeEtcd();
        clock = new MovableClock(Instant.now());
        events = new EventRecorder(client, "test", clock);
        dialer = new EtcdDialer(client, etcd, Duration.ofSeconds(1));
        var config = new OperatorConfig(
                new InetSocketAddress(0),
                new InetSocketAddress(0),
                false,
                NS,
                "test",
                "cluster.local",
                Optional.empty(),
                OperatorConfig.DEFAULT_ETCD_REPOSITORY,
                List.of());
        memberPass = new MemberReconcile(client, dialer, events, config, clock);
    }

    private ClusterReconcile clusterPass(boolean certManagerInstalled) {
        return new ClusterReconcile(
                client,
                dialer,
                events,
                new ClusterMetrics(new PrometheusRegistry()),
                clock,
                certManagerInstalled,
                "cluster.local");
    }

    @Test
    void operatorIssuedClusterGetsItsSecretsFirstAndEveryPodRecordsTheMaterialItRuns() {
        create("sec", operatorIssued("3h"));
        ClusterReconcile pass = clusterPass(false);
        converge(pass, "sec", 40);

        assertThat(ready("sec")).isEqualTo(3);
        for (String s : List.of("sec-ca", "sec-server-tls", "sec-peer-tls", "sec-operator-client-tls")) {
            assertThat(secret(s).getType()).as(s).isEqualTo("kubernetes.io/tls");
            assertThat(secret(s).getData()).as(s).containsKeys("tls.crt", "tls.key", "ca.crt");
        }
        assertMembersRun("sec", current("sec"));
        assertThat(certificateRestarts("sec"))
                .as("members restarted or replaced onto the material they were created with")
                .isEmpty();
        Pod pod = pods("sec").getFirst();
        assertThat(pod.getSpec().getVolumes())
                .filteredOn(v -> v.getSecret() != null)
                .extracting(v -> v.getSecret().getSecretName())
                .containsExactlyInAnyOrder("sec-server-tls", "sec-peer-tls");
    }

    @Test
    void aSettledOperatorIssuedClusterIsLookedAtWithoutAnyRequest() {
        create("calm", operatorIssued("3h"));
        converge(clusterPass(false), "calm", 40);
        assertThat(ready("calm")).isEqualTo(3);
        try (KubernetesClient guarded = new KubernetesClientBuilder()
                .withConfig(client.getConfiguration())
                .withHttpClientBuilderConsumer(CachePass::guard)
                .build()) {
            var pass = new ClusterReconcile(
                    guarded,
                    new EtcdDialer(guarded, etcd, Duration.ofSeconds(1), clock),
                    events,
                    new ClusterMetrics(new PrometheusRegistry()),
                    clock,
                    false,
                    "cluster.local",
                    LeaseCheck.NONE,
                    CachePass.on(guarded));
            new SnapshotReads(client, NS).servedTo(pass, NS);
            assertThat(pass.reconcile(NS, "calm"))
                    .as("first pass: on the API server")
                    .isPresent();
            new SnapshotReads(client, NS).servedTo(pass, NS);
            var secrets = Stream.of("calm-ca", "calm-server-tls", "calm-peer-tls", "calm-operator-client-tls")
                    .collect(Collectors.toMap(
                            s -> s, s -> secret(s).getMetadata().getResourceVersion()));
            int settled = server.getRequestCount();
            for (int i = 0; i < 3; i++) {
                clock.advance(Duration.ofSeconds(30));
                assertThat(pass.reconcile(NS, "calm")).isPresent();
            }
            assertThat(server.getRequestCount())
                    .as("requests in three passes of a settled operator-issued cluster")
                    .isEqualTo(settled);
            assertThat(Stream.of("calm-ca", "calm-server-tls", "calm-peer-tls", "calm-operator-client-tls")
                            .collect(Collectors.toMap(
                                    s -> s, s -> secret(s).getMetadata().getResourceVersion())))
                    .as("no Secret written")
                    .isEqualTo(secrets);
        }
        int remembered = Stream.of("calm-ca", "calm-server-tls", "calm-peer-tls", "calm-operator-client-tls")
                .mapToInt(s -> secret(s).getData().values().stream()
                        .mapToInt(String::length)
                        .sum())
                .sum();
        System.out.println(
                "data of the Secrets a settled operator-issued cluster's passes remember: " + remembered + " B");
        assertThat(remembered).as("docs/concepts.md: 9.1 KiB").isLessThan(16 * 1024);
    }

    @Test
    void renewalRollsEveryMemberOnePerPassUntilAllRunTheNewLeaves() {
        create("roll", operatorIssued("3h"));
        ClusterReconcile pass = clusterPass(false);
        converge(pass, "roll", 40);
        MemberMaterial before = current("roll");
        long rolledBefore = rolls("roll");
        assertThat(pass.settled(NS, "roll"))
                .as("converged: its next pass runs on the caches")
                .isTrue();

        clock.advance(Duration.ofMinutes(150)); // past two thirds of a 3h leaf
        pass.reconcile(NS, "roll");
        assertThat(current("roll")).as("leaves renewed").isNotEqualTo(before);
        assertThat(members("roll"))
                .as("every member stamped with them in the same pass")
                .allSatisfy(m -> assertThat(
                                MemberMaterial.fromAnnotations(m.getMetadata().getAnnotations()))
                        .contains(current("roll")));
        assertThat(pass.settled(NS, "roll"))
                .as("members were observed before their stamps: the next pass must see them on the API server")
                .isFalse();
        int mostRestartedInOnePass = 0;
        for (int i = 0; i < 30; i++) {
            Map<String, String> uids = podUids("roll");
            round(pass, "roll");
            Map<String, String> after = podUids("roll");
            int restarted = (int) uids.entrySet().stream()
                    .filter(e -> !e.getValue().equals(after.get(e.getKey())))
                    .count();
            mostRestartedInOnePass = Math.max(mostRestartedInOnePass, restarted);
        }

        MemberMaterial now = current("roll");
        assertThat(now.serverFingerprint()).isNotEqualTo(before.serverFingerprint());
        assertThat(now.peerFingerprint()).isNotEqualTo(before.peerFingerprint());
        assertThat(now.trusted()).isEqualTo(before.trusted()); // same CA
        assertMembersRun("roll", now);
        assertThat(mostRestartedInOnePass).isEqualTo(1);
        assertThat(rolls("roll") - rolledBefore).isEqualTo(3);
        assertThat(ready("roll")).isEqualTo(3);
    }

    @Test
    void certManagerAbsentBlocksTheClusterWithoutCreatingAnything() {
        create("cm", certManager());
        converge(clusterPass(false), "cm", 3);

        var available = Conditions.find(get("cm").getStatus().getConditions(), Conditions.AVAILABLE)
                .orElseThrow();
        assertThat(available.getStatus()).isEqualTo("False");
        assertThat(available.getReason()).isEqualTo("CertManagerNotInstalled");
        assertThat(members("cm")).isEmpty();
        assertThat(client.services().inNamespace(NS).withName("cm").get()).isNull();
        assertThat(client.genericKubernetesResources(CERTIFICATES)
                        .inNamespace(NS)
                        .withLabel(EtcdOperatorApi.LABEL_CLUSTER, "cm")
                        .list()
                        .getItems())
                .isEmpty();
    }

    @Test
    void certManagerPresentGetsItsCertificatesOnceAndNeverPatched() {
        create("cmok", certManager());
        ClusterReconcile pass = clusterPass(true);
        converge(pass, "cmok", 3);
        var created = client.genericKubernetesResources(CERTIFICATES)
                .inNamespace(NS)
                .withLabel(EtcdOperatorApi.LABEL_CLUSTER, "cmok")
                .list()
                .getItems();
        assertThat(created)
                .extracting(c -> c.getMetadata().getName())
                .containsExactlyInAnyOrder("cmok-server", "cmok-operator-client", "cmok-peer");
        Map<String, String> versions = new HashMap<>();
        created.forEach(
                c -> versions.put(c.getMetadata().getName(), c.getMetadata().getResourceVersion()));

        converge(pass, "cmok", 3);
        client.genericKubernetesResources(CERTIFICATES)
                .inNamespace(NS)
                .withLabel(EtcdOperatorApi.LABEL_CLUSTER, "cmok")
                .list()
                .getItems()
                .forEach(c -> assertThat(c.getMetadata().getResourceVersion())
                        .isEqualTo(versions.get(c.getMetadata().getName())));
    }

    private List<Pod> pods(String cluster) {
        return client.pods()
                .inNamespace(NS)
                .withLabel(EtcdOperatorApi.LABEL_CLUSTER, cluster)
                .list()
                .getItems();
    }

    private void assertMembersRun(String cluster, MemberMaterial expected) {
        assertThat(pods(cluster))
                .hasSize(3)
                .allSatisfy(p -> assertThat(
                                MemberMaterial.fromAnnotations(p.getMetadata().getAnnotations()))
                        .contains(expected));
    }

    /** The material the Secrets hold now, computed here from the Secrets rather than taken from the operator. */
    private MemberMaterial current(String cluster) {
        return new MemberMaterial(
                fingerprint(cluster + "-server-tls"),
                fingerprint(cluster + "-peer-tls"),
                Pem.certificates(bytes(cluster + "-ca", "ca.crt")).stream()
                        .map(c -> Fingerprint.of(c).sha256())
                        .toList());
    }

    private String fingerprint(String secret) {
        return Fingerprint.of(Pem.certificate(bytes(secret, "tls.crt"))).sha256();
    }

    private byte[] bytes(String secret, String key) {
        return Base64.getDecoder().decode(secret(secret).getData().get(key));
    }

    private Secret secret(String name) {
        return client.secrets().inNamespace(NS).withName(name).get();
    }

    private long rolls(String cluster) {
        return certificateRestarts(cluster).stream()
                .filter(r -> r.startsWith("MemberRolling: "))
                .count();
    }

    private List<String> certificateRestarts(String cluster) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> e.getMessage().contains("CertificateRenewed")
                        && cluster.equals(e.getInvolvedObject().getName()))
                .map(e -> e.getReason() + ": " + e.getMessage())
                .toList();
    }

    private Map<String, String> podUids(String cluster) {
        Map<String, String> out = new HashMap<>();
        pods(cluster)
                .forEach(p -> out.put(p.getMetadata().getName(), p.getMetadata().getUid()));
        return out;
    }

    private static ClusterTls operatorIssued(String certificateDuration) {
        OperatorIssuedTls issued = new OperatorIssuedTls();
        issued.setCertificateDuration(certificateDuration);
        ClusterTls tls = new ClusterTls();
        tls.setOperatorIssued(issued);
        return tls;
    }

    private static ClusterTls certManager() {
        IssuerRef issuer = new IssuerRef();
        issuer.setName("etcd-ca");
        ClientCertManager cm = new ClientCertManager();
        cm.setServerIssuerRef(issuer);
        cm.setOperatorClientIssuerRef(issuer);
        ClientTls client = new ClientTls();
        client.setCertManager(cm);
        PeerCertManager peerCm = new PeerCertManager();
        peerCm.setIssuerRef(issuer);
        PeerTls peer = new PeerTls();
        peer.setCertManager(peerCm);
        ClusterTls tls = new ClusterTls();
        tls.setClient(client);
        tls.setPeer(peer);
        return tls;
    }

    private void create(String name, ClusterTls tls) {
        EtcdCluster c = TestClusters.cluster(NS, name, 3, null);
        c.getSpec().setTls(tls);
        client.resource(c).create();
    }

    private EtcdCluster get(String name) {
        return client.resources(EtcdCluster.class)
                .inNamespace(NS)
                .withName(name)
                .get();
    }

    private int ready(String cluster) {
        Integer r = get(cluster).getStatus().getReadyMembers();
        return r == null ? 0 : r;
    }

    private List<EtcdMember> members(String cluster) {
        return client.resources(EtcdMember.class)
                .inNamespace(NS)
                .withLabel(EtcdOperatorApi.LABEL_CLUSTER, cluster)
                .list()
                .getItems();
    }

    private void converge(ClusterReconcile pass, String cluster, int rounds) {
        for (int i = 0; i < rounds; i++) {
            round(pass, cluster);
        }
    }

    /** The cluster pass, then the member controller and a kubelet that makes each Pod Ready. */
    private void round(ClusterReconcile pass, String cluster) {
        pass.reconcile(NS, cluster);
        for (EtcdMember m : members(cluster)) {
            if (m.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            if (m.getMetadata().getFinalizers() == null
                    || m.getMetadata().getFinalizers().isEmpty()) {
                m = client.resources(EtcdMember.class)
                        .inNamespace(NS)
                        .withName(m.getMetadata().getName())
                        .edit(x -> {
                            x.getMetadata().setFinalizers(new ArrayList<>(List.of(EtcdOperatorApi.MEMBER_FINALIZER)));
                            return x;
                        });
            }
            memberPass.reconcile(m);
            kubelet(m);
        }
    }

    private void kubelet(EtcdMember m) {
        Pod pod = client.pods()
                .inNamespace(NS)
                .withName(m.getMetadata().getName())
                .get();
        if (pod == null) {
            return;
        }
        etcd.start(m.getMetadata().getName(), Names.peerUrl(m));
        if (etcd.byName(m.getMetadata().getName()).isEmpty()) {
            return;
        }
        if (pod.getStatus() == null
                || pod.getStatus().getConditions() == null
                || pod.getStatus().getConditions().isEmpty()) {
            client.pods().inNamespace(NS).withName(m.getMetadata().getName()).edit(p -> {
                p.setStatus(new PodStatus());
                p.getStatus().setPhase("Running");
                p.getStatus()
                        .setConditions(List.of(new PodConditionBuilder()
                                .withType("Ready")
                                .withStatus("True")
                                .build()));
                return p;
            });
        }
    }
}
