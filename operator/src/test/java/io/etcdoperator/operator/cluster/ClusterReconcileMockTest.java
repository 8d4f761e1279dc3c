package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.AuthSpec;
import io.etcdoperator.api.v1alpha2.ClientTls;
import io.etcdoperator.api.v1alpha2.ClusterTls;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterSpec;
import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.api.v1alpha2.EtcdDefragSpec;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.MockCrds;
import io.etcdoperator.operator.TestClusters;
import io.etcdoperator.operator.config.OperatorConfig;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.member.MemberReconcile;
import io.etcdoperator.operator.metrics.ClusterMetrics;
import io.etcdoperator.operator.reads.CachePass;
import io.etcdoperator.operator.reads.SecretReads;
import io.etcdoperator.operator.resources.MemberPods;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Drives the cluster and member passes against the fabric8 CRUD mock and an in-memory etcd, standing in for the
 * kubelet (Pods become Ready, etcd processes "start"). Fast feedback on multi-pass behaviour; real-process proof is
 * in the etcd-client ITs and the end-to-end suite.
 */
@EnableKubernetesMockClient(crud = true)
class ClusterReconcileMockTest {

    static KubernetesClient client;
    static KubernetesMockServer server;
    private static final String NS = "default";
    private FakeEtcd etcd;
    private ClusterReconcile clusterPass;
    private Clock clock;
    private MemberReconcile memberPass;
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());
    /** Every node cordoned: a Pod not yet running stays Pending/Unschedulable and its etcd never starts. */
    private boolean cordoned;
    /** Another replica holds the leader Lease: the executor must stop before a step's next write. */
    private volatile boolean leaseLost;
    /** Lease checks that pass before the Lease is lost (a cut further into a step). */
    private volatile int leaseChecksLeft = Integer.MAX_VALUE;

    @BeforeEach
    void setUp() throws IOException {
        MockCrds.install(client);
        etcd = new FakeEtcd();
        // one second a round: a sign of lost data is proven only in a later pass at least LossProof.WINDOW on
        clock = new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now.get();
            }
        };
        var events = new EventRecorder(client, "test", clock);
        var dialer = new EtcdDialer(client, etcd, Duration.ofSeconds(1));
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
        LeaseCheck lease = () -> {
            if (leaseLost || leaseChecksLeft-- <= 0) {
                throw new LeaseCheck.LeaseLost("the leader Lease is held by another replica");
            }
        };
        clusterPass = new ClusterReconcile(
                client,
                dialer,
                events,
                new ClusterMetrics(new PrometheusRegistry()),
                clock,
                false,
                "cluster.local",
                lease);
        memberPass = new MemberReconcile(client, dialer, events, config, clock);
    }

    private EtcdCluster create(String name, int replicas, String medium) {
        return client.resource(TestClusters.cluster(NS, name, replicas, medium)).create();
    }

    /** A cluster with server TLS (a CA is all the fake dial needs) and spec.auth pointing at {@code secret}. */
    private EtcdCluster createWithAuth(String name, String secret) {
        client.secrets()
                .inNamespace(NS)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName(name + "-server-tls")
                        .endMetadata()
                        .withType("kubernetes.io/tls")
                        .addToData(base64(Map.of("ca.crt", "ca", "tls.crt", "crt", "tls.key", "key")))
                        .build())
                .create();
        EtcdCluster c = TestClusters.cluster(NS, name, 3, null);
        EtcdClusterSpec spec = c.getSpec();
        var tls = new ClusterTls();
        var clientTls = new ClientTls();
        clientTls.setServerSecretRef(new LocalObjectReference(name + "-server-tls"));
        tls.setClient(clientTls);
        spec.setTls(tls);
        var auth = new AuthSpec();
        auth.setEnabled(true);
        auth.setRootCredentialsSecretRef(new LocalObjectReference(secret));
        spec.setAuth(auth);
        return client.resource(c).create();
    }

    private void rootSecret(String name, String password) {
        client.secrets()
                .inNamespace(NS)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withType("kubernetes.io/basic-auth")
                        .addToData(base64(Map.of("username", "root", "password", password)))
                        .build())
                .create();
    }

    /** The CRUD mock stores Secrets as given: stringData is not folded into data as a real API server does. */
    private static Map<String, String> base64(Map<String, String> plain) {
        Map<String, String> data = new HashMap<>();
        plain.forEach((k, v) -> data.put(k, Base64.getEncoder().encodeToString(v.getBytes())));
        return data;
    }

    private List<String> eventReasons(String cluster) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> cluster.equals(e.getInvolvedObject().getName()))
                .map(e -> e.getReason())
                .toList();
    }

    private EtcdCluster get(String name) {
        return client.resources(EtcdCluster.class)
                .inNamespace(NS)
                .withName(name)
                .get();
    }

    private List<EtcdMember> members(String cluster) {
        return client.resources(EtcdMember.class)
                .inNamespace(NS)
                .withLabel(EtcdOperatorApi.LABEL_CLUSTER, cluster)
                .list()
                .getItems();
    }

    /** One round: the cluster pass, then what the member controller and the kubelet would do. */
    private void round(String cluster) {
        now.updateAndGet(t -> t.plusSeconds(1).isBefore(Instant.now()) ? Instant.now() : t.plusSeconds(1));
        clusterPass.reconcile(NS, cluster);
        for (EtcdMember m : members(cluster)) {
            if (m.getMetadata().getDeletionTimestamp() != null) {
                if (memberPass.cleanup(m).done()) {
                    client.resources(EtcdMember.class)
                            .inNamespace(NS)
                            .withName(m.getMetadata().getName())
                            .edit(x -> {
                                x.getMetadata().setFinalizers(new ArrayList<>());
                                return x;
                            });
                    client.pods()
                            .inNamespace(NS)
                            .withName(m.getMetadata().getName())
                            .delete();
                }
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

    /** A created Pod starts its etcd (known to the fake once added) and turns Ready. */
    private void kubelet(EtcdMember m) {
        Pod pod = client.pods()
                .inNamespace(NS)
                .withName(m.getMetadata().getName())
                .get();
        if (pod == null || Boolean.TRUE.equals(m.getSpec().getDormant())) {
            return;
        }
        if (cordoned
                && (pod.getStatus() == null || !"Running".equals(pod.getStatus().getPhase()))) {
            client.pods().inNamespace(NS).withName(m.getMetadata().getName()).edit(p -> {
                p.setStatus(new PodStatusBuilder()
                        .withPhase("Pending")
                        .addNewCondition()
                        .withType("PodScheduled")
                        .withStatus("False")
                        .withReason("Unschedulable")
                        .withMessage("0/3 nodes are available: 3 node(s) were unschedulable.")
                        .endCondition()
                        .build());
                return p;
            });
            return;
        }
        etcd.start(m.getMetadata().getName(), Names.peerUrl(m));
        if (etcd.byName(m.getMetadata().getName()).isEmpty()) {
            return;
        }
        String image = pod.getSpec().getContainers().getFirst().getImage();
        synchronized (etcd) {
            etcd.runs.put(m.getMetadata().getName(), image.substring(image.lastIndexOf(":v") + 2));
        }
        if (pod.getStatus() == null
                || pod.getStatus().getConditions() == null
                || pod.getStatus().getConditions().isEmpty()) {
            client.pods().inNamespace(NS).withName(m.getMetadata().getName()).edit(p -> {
                if (p.getStatus() == null) {
                    p.setStatus(new PodStatus());
                }
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

    private void converge(String cluster, int rounds) {
        for (int i = 0; i < rounds; i++) {
            round(cluster);
        }
    }

    private int ready(String cluster) {
        Integer r = get(cluster).getStatus().getReadyMembers();
        return r == null ? 0 : r;
    }

    private Map<String, String> podUids(String cluster) {
        Map<String, String> uids = new TreeMap<>();
        for (EtcdMember m : members(cluster)) {
            Pod pod = client.pods()
                    .inNamespace(NS)
                    .withName(m.getMetadata().getName())
                    .get();
            uids.put(
                    m.getMetadata().getName(),
                    pod == null ? "" : pod.getMetadata().getUid());
        }
        return uids;
    }

    private Map<String, String> memberIds(String cluster) {
        Map<String, String> ids = new TreeMap<>();
        members(cluster)
                .forEach(m -> ids.put(m.getMetadata().getName(), m.getStatus().getMemberID()));
        return ids;
    }

    private void patchVersion(String cluster, String version) {
        client.resources(EtcdCluster.class).inNamespace(NS).withName(cluster).edit(c -> {
            c.getSpec().setVersion(version);
            return c;
        });
    }

    @Test
    void aVersionChangeRestartsOneMemberPerPassTheLeaderLastAfterMoveLeaderKeepingMemberIds() {
        create("up", 3, "");
        converge("up", 25);
        assertThat(ready("up")).isEqualTo(3);
        Map<String, String> ids = memberIds("up");
        String leader = etcd.leaderName().orElseThrow();
        patchVersion("up", "3.5.30");

        List<String> restarted = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            Map<String, String> before = podUids("up");
            round("up");
            Map<String, String> after = podUids("up");
            List<String> changed = before.keySet().stream()
                    .filter(k -> !before.get(k).equals(after.get(k)))
                    .toList();
            assertThat(changed).as("members restarted in one pass").hasSizeLessThanOrEqualTo(1);
            restarted.addAll(changed);
        }

        assertThat(restarted).as("each member restarted once").hasSize(3).doesNotHaveDuplicates();
        assertThat(restarted.getLast()).as("the first leader restarts last").isEqualTo(leader);
        assertThat(etcd.changes)
                .as("leadership moved away before the leader restarted")
                .anyMatch(c -> c.startsWith("move-leader "));
        assertThat(memberIds("up")).as("PVC members keep their member ids").isEqualTo(ids);
        assertThat(members("up"))
                .allMatch(m -> "3.5.30".equals(m.getSpec().getVersion())
                        && "3.5.30".equals(m.getStatus().getVersion()));
        assertThat(get("up").getStatus().getVersion()).isEqualTo("3.5.30");
        assertThat(ready("up")).isEqualTo(3);
        assertThat(Conditions.find(get("up").getStatus().getConditions(), Conditions.PROGRESSING)
                        .orElseThrow()
                        .getReason())
                .isEqualTo("Reconciled");
    }

    @Test
    void aNewVersionOfABringYourOwnSecretRollsEveryMemberOnceOnePerPass() {
        rootSecret("byo-root", "s3cret");
        createWithAuth("byo", "byo-root");
        converge("byo", 20);
        assertThat(ready("byo")).isEqualTo(3);
        converge("byo", 3);
        Map<String, String> pods = podUids("byo");

        client.secrets().inNamespace(NS).withName("byo-server-tls").edit(secret -> {
            secret.getData().put("tls.crt", Base64.getEncoder().encodeToString("renewed".getBytes()));
            return secret;
        });
        List<String> restarted = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Map<String, String> before = podUids("byo");
            round("byo");
            Map<String, String> after = podUids("byo");
            List<String> changed = before.keySet().stream()
                    .filter(k -> !before.get(k).equals(after.get(k)))
                    .toList();
            assertThat(changed).as("members restarted in one pass").hasSizeLessThanOrEqualTo(1);
            restarted.addAll(changed);
        }

        assertThat(restarted).containsExactlyInAnyOrderElementsOf(pods.keySet());
        assertThat(client.v1().events().inNamespace(NS).list().getItems().stream()
                        .filter(e -> "MemberRolling".equals(e.getReason())
                                && e.getMessage().contains("CertificateRenewed")))
                .hasSize(3);
        assertThat(ready("byo")).isEqualTo(3);
    }

    /** A pass of the cluster controller on {@code caches}, through a client whose requests the guard stops. */
    private ClusterReconcile cachedPass(KubernetesClient guarded, SnapshotReads caches) {
        var pass = new ClusterReconcile(
                guarded,
                new EtcdDialer(guarded, etcd, Duration.ofSeconds(1), clock),
                new EventRecorder(guarded, "test", clock),
                new ClusterMetrics(new PrometheusRegistry()),
                clock,
                false,
                "cluster.local",
                LeaseCheck.NONE,
                CachePass.on(guarded));
        return lookFrom(pass, caches);
    }

    /** The pass reads {@code caches} and the Services and PDB as they are now. */
    private ClusterReconcile lookFrom(ClusterReconcile pass, SnapshotReads caches) {
        return caches.servedTo(pass, NS);
    }

    private static KubernetesClient guarded() {
        return new KubernetesClientBuilder()
                .withConfig(client.getConfiguration())
                .withHttpClientBuilderConsumer(CachePass::guard)
                .build();
    }

    @Test
    void aSettledClusterIsLookedAtWithoutAnyRequestToTheApiServer() {
        create("idle", 3, "");
        converge("idle", 25);
        assertThat(ready("idle")).isEqualTo(3);
        try (KubernetesClient guarded = guarded()) {
            var caches = new SnapshotReads(client, NS);
            ClusterReconcile pass = cachedPass(guarded, caches);
            int before = server.getRequestCount();
            assertThat(pass.reconcile(NS, "idle"))
                    .as("first pass: on the API server, Converged")
                    .isPresent();
            assertThat(server.getRequestCount())
                    .as("the first pass reads the API server")
                    .isGreaterThan(before);

            lookFrom(pass, new SnapshotReads(client, NS)); // the informers caught up with what that pass wrote
            int settled = server.getRequestCount();
            for (int i = 0; i < 3; i++) {
                assertThat(pass.reconcile(NS, "idle")).contains(StepExecutor.STEADY);
            }
            assertThat(server.getRequestCount())
                    .as("requests in three passes of a settled cluster")
                    .isEqualTo(settled);
            assertThat(etcd.changes).as("nothing changed in etcd either").noneMatch(c -> c.startsWith("remove"));
        }
    }

    @Test
    void aFormingPassReadsNoClaimsOfAMemoryClusterAndNoDefragsWhileTheCacheHoldsNoUnfinishedRun()
            throws InterruptedException {
        create("forming-mem", 3, "Memory");
        create("forming-disk", 3, "");
        converge("forming-mem", 2);
        converge("forming-disk", 2);
        assertThat(ready("forming-mem")).as("still forming").isLessThan(3);
        try (KubernetesClient guarded = guarded()) {
            ClusterReconcile pass = cachedPass(guarded, new SnapshotReads(client, NS));
            List<String> memory = requestsOf(() -> pass.reconcile(NS, "forming-mem"));
            assertThat(memory)
                    .as("an API server pass")
                    .anyMatch(r -> r.startsWith("GET") && r.contains("/etcdmembers"));
            assertThat(memory).noneMatch(r -> r.contains("/persistentvolumeclaims") || r.contains("/etcddefrags"));
            List<String> disk = requestsOf(() -> pass.reconcile(NS, "forming-disk"));
            assertThat(disk).anyMatch(r -> r.contains("/persistentvolumeclaims"));
            assertThat(disk).noneMatch(r -> r.contains("/etcddefrags"));

            var run = new EtcdDefrag();
            run.setMetadata(
                    new ObjectMetaBuilder().withName("now").withNamespace(NS).build());
            run.setSpec(new EtcdDefragSpec());
            run.getSpec().setClusterRef(new LocalObjectReference("forming-disk"));
            client.resource(run).create();
            lookFrom(pass, new SnapshotReads(client, NS));
            assertThat(requestsOf(() -> pass.reconcile(NS, "forming-disk")))
                    .as("an unfinished run in the cache: the API server's list")
                    .anyMatch(r -> r.startsWith("GET") && r.contains("/etcddefrags"));
            client.resource(run).delete(); // the other tests share the namespace
        }
    }

    /** The requests {@code pass} sent, as "METHOD path". */
    private static List<String> requestsOf(Runnable pass) throws InterruptedException {
        while (server.takeRequest(1, TimeUnit.MILLISECONDS) != null) {
            // what earlier passes sent
        }
        pass.run();
        List<String> sent = new ArrayList<>();
        for (var r = server.takeRequest(1, TimeUnit.MILLISECONDS);
                r != null;
                r = server.takeRequest(1, TimeUnit.MILLISECONDS)) {
            sent.add(r.getMethod() + " " + r.getPath());
        }
        return sent;
    }

    @Test
    void aSettledClusterWithAuthReadsTheUsersSecretEveryMinuteAndItsOwnEveryFive() throws InterruptedException {
        rootSecret("sealed-root", "s3cret");
        createWithAuth("sealed", "sealed-root");
        converge("sealed", 25);
        assertThat(ready("sealed")).isEqualTo(3);
        assertThat(get("sealed").getStatus().getAuthEnabled()).isTrue();
        try (KubernetesClient guarded = guarded()) {
            ClusterReconcile pass = cachedPass(guarded, new SnapshotReads(client, NS));
            assertThat(pass.reconcile(NS, "sealed"))
                    .as("on the API server: reads the Secrets")
                    .isPresent();
            lookFrom(pass, new SnapshotReads(client, NS));
            int settled = server.getRequestCount();
            for (int i = 0; i < 2; i++) {
                now.updateAndGet(t -> t.plusSeconds(25));
                assertThat(pass.reconcile(NS, "sealed")).contains(StepExecutor.STEADY);
            }
            assertThat(server.getRequestCount())
                    .as("requests in two passes of a settled auth cluster")
                    .isEqualTo(settled);

            now.updateAndGet(t -> t.plusSeconds(25));
            assertThat(pass.reconcile(NS, "sealed")).contains(StepExecutor.STEADY);
            assertThat(server.getRequestCount())
                    .as("75 s on: the user's two Secrets (root, server TLS) read again, alone")
                    .isEqualTo(settled + 2);
            assertThat(server.getLastRequest().getPath()).contains("/secrets/sealed-");

            now.updateAndGet(t -> t.plus(SecretReads.REREAD));
            assertThat(pass.reconcile(NS, "sealed"))
                    .as("converged for over two minutes: at rest")
                    .contains(WaitPacing.RESTING);
            assertThat(server.getRequestCount())
                    .as("the operator's copy read again too, in the same cache pass")
                    .isEqualTo(settled + 5);
            now.updateAndGet(t -> t.plus(WaitPacing.RESTING));
            assertThat(pass.reconcile(NS, "sealed")).contains(WaitPacing.RESTING);
            assertThat(server.getRequestCount())
                    .as("and the next one sends nothing")
                    .isEqualTo(settled + 5);
        }
    }

    @Test
    void aClusterTakenOverFromCozystackLatchesItsTlsAndAuthOnceAndGoesOnInTheSamePass() {
        rootSecret("theirs-root", "s3cret");
        createWithAuth("theirs", "theirs-root");
        converge("theirs", 25);
        assertThat(ready("theirs")).isEqualTo(3);
        EtcdCluster running = get("theirs");
        // the status as cozystack's operator leaves it: no running version, no tls, auth or bootstrap latched
        running.getStatus().setVersion(null);
        running.getStatus().getObserved().setTls(null);
        running.getStatus().getObserved().setAuth(null);
        client.resource(running).updateStatus();

        clusterPass.reconcile(NS, "theirs");

        EtcdCluster after = get("theirs");
        assertThat(after.getStatus().getObserved().getAuth())
                .isEqualTo(after.getSpec().getAuth());
        assertThat(after.getStatus().getObserved().getTls())
                .isEqualTo(after.getSpec().getTls());
        assertThat(after.getStatus().getVersion())
                .as("the same pass went on to observe")
                .isEqualTo("3.5.16");
        converge("theirs", 3);
        assertThat(eventReasons("theirs")).as("once").containsOnlyOnce("ImmutablesAdopted");
    }

    @Test
    void aSeedCutByALostLeaseAfterItsEtcdMemberWasCreatedIsCompletedByTheNextLeader() {
        create("cut", 3, "");
        leaseLost = true;
        for (int i = 0; i < 3 && members("cut").isEmpty(); i++) {
            clusterPass.reconcile(NS, "cut");
        }
        assertThat(members("cut")).as("the step's first write").hasSize(1);
        assertThat(members("cut").getFirst().getSpec().getInitialCluster())
                .as("cut before the seed may start")
                .isNullOrEmpty();
        leaseLost = false;
        converge("cut", 25);
        assertThat(ready("cut")).isEqualTo(3);
        assertThat(members("cut")).hasSize(3);
        assertThat(etcd.members).hasSize(3).noneMatch(m -> m.learner());
    }

    @Test
    void aSeedCutByALostLeaseAfterItsVoterMarkIsCompletedByTheNextLeader() {
        create("cut2", 3, "");
        leaseChecksLeft = 1;
        for (int i = 0; i < 3 && members("cut2").isEmpty(); i++) {
            clusterPass.reconcile(NS, "cut2");
        }
        assertThat(members("cut2")).hasSize(1);
        EtcdMember seed = members("cut2").getFirst();
        assertThat(seed.getStatus().getIsVoter()).as("the second write").isTrue();
        assertThat(seed.getSpec().getInitialCluster())
                .as("cut before the third")
                .isNullOrEmpty();
        leaseChecksLeft = Integer.MAX_VALUE;
        converge("cut2", 25);
        assertThat(ready("cut2")).isEqualTo(3);
        assertThat(etcd.members).hasSize(3).noneMatch(m -> m.learner());
    }

    @Test
    void aLearnerAddCutByALostLeaseIsLetStartByTheNextLeaderWithoutASecondAdd() {
        create("grow", 1, "");
        converge("grow", 10);
        assertThat(ready("grow")).isEqualTo(1);
        client.resources(EtcdCluster.class).inNamespace(NS).withName("grow").edit(c -> {
            c.getSpec().setReplicas(2);
            return c;
        });
        leaseLost = true;
        for (int i = 0; i < 3 && members("grow").size() < 2; i++) {
            clusterPass.reconcile(NS, "grow");
        }
        assertThat(members("grow")).as("CreateMember's first write").hasSize(2);
        assertThat(etcd.members)
                .as("its learner add is not made without the Lease")
                .hasSize(1);
        for (int i = 0; i < 3 && etcd.members.size() < 2; i++) {
            clusterPass.reconcile(NS, "grow");
        }
        assertThat(etcd.members).as("AddLearner's first write: the add").hasSize(2);
        assertThat(members("grow"))
                .filteredOn(m -> m.getSpec().getInitialCluster() == null
                        || m.getSpec().getInitialCluster().isEmpty())
                .as("cut before the learner may start")
                .hasSize(1);
        leaseLost = false;
        converge("grow", 20);
        assertThat(ready("grow")).isEqualTo(2);
        assertThat(etcd.members).as("one add, promoted").hasSize(2).noneMatch(m -> m.learner());
    }

    @Test
    void aRestartCutByALostLeaseAfterTheMemberTookTheTargetIsRestartedByTheNextLeader() {
        create("cutroll", 3, "");
        converge("cutroll", 25);
        Map<String, String> ids = memberIds("cutroll");
        Map<String, String> pods = podUids("cutroll");
        patchVersion("cutroll", "3.5.30");
        leaseLost = true;
        for (int i = 0;
                i < 5
                        && members("cutroll").stream()
                                .noneMatch(m -> "3.5.30".equals(m.getSpec().getVersion()));
                i++) {
            clusterPass.reconcile(NS, "cutroll");
        }
        assertThat(members("cutroll"))
                .as("RestartMember's first write: one EtcdMember on the target")
                .filteredOn(m -> "3.5.30".equals(m.getSpec().getVersion()))
                .hasSize(1);
        assertThat(podUids("cutroll")).as("cut before its Pod was deleted").isEqualTo(pods);
        leaseLost = false;
        converge("cutroll", 40);
        assertThat(podUids("cutroll"))
                .as("every Pod restarted, the cut member's too")
                .allSatisfy((name, uid) -> assertThat(uid).isNotEqualTo(pods.get(name)));
        assertThat(members("cutroll"))
                .allMatch(m -> "3.5.30".equals(m.getStatus().getVersion()));
        assertThat(memberIds("cutroll")).isEqualTo(ids);
        assertThat(ready("cutroll")).isEqualTo(3);
    }

    @Test
    void aReplacementCutByALostLeaseAfterTheVolumeWasReleasedIsFinishedByTheNextLeader() {
        create("cutrep", 3, "");
        converge("cutrep", 25);
        Map<String, String> ids = memberIds("cutrep");
        String left = members("cutrep").stream()
                .filter(m -> !Boolean.TRUE.equals(m.getSpec().getBootstrap()))
                .map(m -> m.getMetadata().getName())
                .findFirst()
                .orElseThrow();
        String volume = Names.dataPvc(left);
        String volumeUid = client.persistentVolumeClaims()
                .inNamespace(NS)
                .withName(volume)
                .get()
                .getMetadata()
                .getUid();
        synchronized (etcd) { // etcdctl member remove behind the operator's back: etcd applies it and exits 0
            etcd.members.removeIf(m -> m.name().equals(left));
        }
        client.pods().inNamespace(NS).withName(left).edit(p -> {
            p.setStatus(new PodStatusBuilder()
                    .withPhase("Running")
                    .addNewCondition()
                    .withType("Ready")
                    .withStatus("False")
                    .endCondition()
                    .addNewContainerStatus()
                    .withName(MemberPods.CONTAINER)
                    .withRestartCount(1)
                    .withNewState()
                    .withNewWaiting()
                    .withReason("CrashLoopBackOff")
                    .endWaiting()
                    .endState()
                    .withNewLastState()
                    .withNewTerminated()
                    .withExitCode(0)
                    .withReason("Completed")
                    .withMessage("etcd-guard: "
                            + "etcd exited with code 0 without being asked to stop, as it does once it applied its own removal "
                            + "from the cluster")
                    .endTerminated()
                    .endLastState()
                    .endContainerStatus()
                    .build());
            return p;
        });
        leaseLost = true;
        for (int i = 0;
                i < 5
                        && !client.persistentVolumeClaims()
                                .inNamespace(NS)
                                .withName(volume)
                                .get()
                                .getMetadata()
                                .getLabels()
                                .containsKey(EtcdOperatorApi.LABEL_RETAINED_FROM);
                i++) {
            now.updateAndGet(t -> t.plusSeconds(6));
            clusterPass.reconcile(NS, "cutrep");
        }
        var released =
                client.persistentVolumeClaims().inNamespace(NS).withName(volume).get();
        assertThat(released.getMetadata().getOwnerReferences())
                .as("the replacement's first write")
                .isNullOrEmpty();
        assertThat(released.getMetadata().getLabels()).containsEntry(EtcdOperatorApi.LABEL_RETAINED_FROM, left);
        assertThat(members("cutrep"))
                .as("cut before the EtcdMember was deleted")
                .anyMatch(m -> m.getMetadata().getName().equals(left));
        leaseLost = false;
        converge("cutrep", 40);
        assertThat(members("cutrep"))
                .as("replaced")
                .hasSize(3)
                .noneMatch(m -> m.getMetadata().getName().equals(left));
        assertThat(ready("cutrep")).isEqualTo(3);
        assertThat(etcd.members).hasSize(3).noneMatch(m -> m.learner());
        ids.remove(left);
        assertThat(memberIds("cutrep")).as("the other two kept their ids").containsAllEntriesOf(ids);
        assertThat(client.persistentVolumeClaims()
                        .inNamespace(NS)
                        .withName(volume)
                        .get()
                        .getMetadata()
                        .getUid())
                .as("the released volume kept")
                .isEqualTo(volumeUid);
    }

    @Test
    void aReadyMemberIsLookedAtWithoutAnyRequestAndAChangedOneGoesToTheApiServer() {
        create("quiet", 3, "");
        converge("quiet", 25);
        assertThat(ready("quiet")).isEqualTo(3);
        try (KubernetesClient guarded = guarded()) {
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
            var pass = new MemberReconcile(
                    guarded,
                    new EtcdDialer(guarded, etcd, Duration.ofSeconds(1)),
                    new EventRecorder(guarded, "test", clock),
                    config,
                    clock);
            CachePass.on(guarded);
            var caches = new SnapshotReads(client, NS);
            int before = server.getRequestCount();
            for (EtcdMember m : caches.members("default", "quiet")) {
                assertThat(CachePass.run(() -> pass.reconcile(m, caches))).contains(Duration.ofMinutes(5));
            }
            assertThat(server.getRequestCount())
                    .as("requests for three ready members")
                    .isEqualTo(before);

            EtcdMember first = caches.members("default", "quiet").getFirst();
            caches.pods.removeIf(
                    p -> p.getMetadata().getName().equals(first.getMetadata().getName()));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> CachePass.run(() -> pass.reconcile(first, caches)))
                    .as("a Pod the cache has not seen would be created: the pass goes to the API server")
                    .isInstanceOf(CachePass.NeedsApiServer.class)
                    .hasMessageContaining("POST");
            assertThat(server.getRequestCount())
                    .as("the stopped request never left")
                    .isEqualTo(before);
        }
    }

    @Test
    void aCacheThatHasNotSeenAPodDecidesNothingTheApiServerDecides() {
        create("lag", 3, "Memory");
        converge("lag", 25);
        assertThat(ready("lag")).isEqualTo(3);
        Map<String, String> pods = podUids("lag");
        Map<String, String> ids = memberIds("lag");
        int events = client.v1().events().inNamespace(NS).list().getItems().size();
        try (KubernetesClient guarded = guarded()) {
            var caches = new SnapshotReads(client, NS);
            ClusterReconcile pass = cachedPass(guarded, caches);
            pass.reconcile(NS, "lag"); // settles it on the API server
            var lagging = new SnapshotReads(client, NS);
            lagging.pods.removeIf(p -> p.getMetadata()
                    .getName()
                    .equals(members("lag").getFirst().getMetadata().getName()));
            lookFrom(pass, lagging);
            int before = server.getRequestCount();
            for (int i = 0; i < 8; i++) { // 8 s: a loss seen in the cache alone would be "proven" after 5
                now.updateAndGet(t -> t.plusSeconds(1));
                assertThat(pass.reconcile(NS, "lag")).contains(StepExecutor.STEADY);
            }
            assertThat(server.getRequestCount())
                    .as("each pass went on to the API server")
                    .isGreaterThan(before);
        }
        assertThat(podUids("lag")).as("no Pod replaced").isEqualTo(pods);
        assertThat(memberIds("lag")).as("no member replaced").isEqualTo(ids);
        assertThat(client.v1().events().inNamespace(NS).list().getItems())
                .as("no event")
                .hasSize(events);
    }

    @Test
    void learnersArePromotedThroughTheLeadersEndpoint() {
        create("promo", 3, "");
        converge("promo", 25);
        assertThat(ready("promo")).isEqualTo(3);
        assertThat(etcd.promotedViaLeader)
                .as("promotions sent straight to the leader")
                .isEqualTo(2);
    }

    @Test
    void aMinorDowngradeIsRefusedAndNothingRestarts() {
        create("down", 3, "");
        converge("down", 15);
        Map<String, String> pods = podUids("down");
        patchVersion("down", "3.4.23");
        converge("down", 5);

        assertThat(podUids("down")).isEqualTo(pods);
        var degraded = Conditions.find(get("down").getStatus().getConditions(), Conditions.DEGRADED)
                .orElseThrow();
        assertThat(degraded.getStatus()).isEqualTo("True");
        assertThat(degraded.getReason()).isEqualTo("UnsupportedUpgrade");
        assertThat(degraded.getMessage()).contains("3.5.16 to 3.4.23").contains("minor downgrade");
        assertThat(get("down").getStatus().getObserved().getVersion()).isEqualTo("3.5.16");
        assertThat(eventReasons("down")).containsOnlyOnce("UnsupportedUpgrade");
    }

    @Test
    void theFirstPassLatchesTheTargetAndGoesOnToCreateTheSeed() {
        create("first", 3, "");
        clusterPass.reconcile(NS, "first");
        assertThat(get("first").getStatus().getObserved().getReplicas()).isEqualTo(3);
        assertThat(members("first"))
                .hasSize(1)
                .allMatch(m -> Boolean.TRUE.equals(m.getSpec().getBootstrap()));
        assertThat(members("first").getFirst().getSpec().getInitialCluster()).isNotBlank();
    }

    /** Latching the cluster id changes nothing etcd or a Pod waits for: the learner's add follows in the same call. */
    @Test
    void theReconcileThatDiscoversTheClusterAddsTheFirstLearnerToo() {
        create("discover", 3, "Memory");
        for (int i = 0; i < 30 && etcd.members.isEmpty(); i++) {
            round("discover"); // until the kubelet started the seed's etcd
        }
        memberPass.reconcile(members("discover").getFirst()); // its Pod Ready and etcd's id: the member is Ready
        assertThat(eventReasons("discover")).doesNotContain("ClusterDiscovered");

        clusterPass.reconcile(NS, "discover");

        assertThat(eventReasons("discover")).containsOnlyOnce("ClusterDiscovered");
        assertThat(get("discover").getStatus().getClusterID()).isEqualTo(etcd.clusterId.hex());
        assertThat(etcd.changes).hasSize(1).allMatch(change -> change.startsWith("add "));
    }

    @Test
    void thePassThatRestartsTheSeedDoesNotReportItReady() {
        create("formed", 3, "");
        for (int i = 0; i < 30 && !eventReasons("formed").contains("MemberRolling"); i++) {
            round("formed");
        }
        assertThat(eventReasons("formed")).contains("MemberRolling");
        // the seed was ready in the observation of that pass, but its Pod was deleted by it: READY must not say 1
        assertThat(ready("formed")).isZero();
    }

    @Test
    void bootstrapsFromOneSeedThenGrowsThroughLearnersOneAtATime() {
        create("demo", 3, "");
        converge("demo", 30);
        EtcdCluster c = get("demo");
        assertThat(c.getStatus().getClusterID()).isEqualTo(etcd.clusterId.hex());
        assertThat(ready("demo")).isEqualTo(3);
        assertThat(etcd.members).hasSize(3).noneMatch(m -> m.learner());
        assertThat(members("demo"))
                .filteredOn(m -> Boolean.TRUE.equals(m.getSpec().getBootstrap()))
                .hasSize(1);
        // the seed restarted once with --initial-cluster-state=existing while alone (ClusterFormed); then every member
        // joined as a learner and was promoted, one at a time
        assertThat(etcd.changes).hasSize(4);
        assertThat(etcd.changes.get(0)).startsWith("add ");
        assertThat(etcd.changes.get(1)).startsWith("promote ");
        assertThat(etcd.changes.get(2)).startsWith("add ");
        assertThat(etcd.changes.get(3)).startsWith("promote ");
        assertThat(client.v1().events().inNamespace(NS).list().getItems())
                .extracting(e -> e.getMessage())
                .anyMatch(msg -> msg.contains("ClusterFormed"));
        assertThat(Conditions.isTrue(c.getStatus().getConditions(), Conditions.AVAILABLE))
                .isTrue();
        assertThat(Conditions.find(c.getStatus().getConditions(), Conditions.PROGRESSING)
                        .orElseThrow()
                        .getReason())
                .isEqualTo("Reconciled");
        assertThat(c.getStatus().getProgressDeadline()).isNull();
        assertThat(c.getStatus().getSelector()).isEqualTo("etcd-operator.cozystack.io/cluster=demo");
        assertThat(client.services()
                        .inNamespace(NS)
                        .withName("demo")
                        .get()
                        .getSpec()
                        .getPublishNotReadyAddresses())
                .isTrue();
        assertThat(client.services().inNamespace(NS).withName("demo-client").get())
                .isNotNull();
        assertThat(client.v1().events().inNamespace(NS).list().getItems())
                .extracting(e -> e.getReason())
                .contains("LearnerAdded", "LearnerPromoted", "ClusterDiscovered");
    }

    @Test
    void scalesDownNewestFirstThroughTheFinalizerAndPausesAndResumesWithTheSameMemberId() {
        create("walk", 3, "");
        converge("walk", 30);
        assertThat(ready("walk")).isEqualTo(3);
        String seed = members("walk").stream()
                .filter(m -> Boolean.TRUE.equals(m.getSpec().getBootstrap()))
                .findFirst()
                .orElseThrow()
                .getMetadata()
                .getName();
        String seedId = etcd.byName(seed).orElseThrow().id().hex();

        client.resources(EtcdCluster.class).inNamespace(NS).withName("walk").edit(c -> {
            c.getSpec().setReplicas(1);
            return c;
        });
        converge("walk", 30);
        assertThat(etcd.members).hasSize(1);
        assertThat(etcd.members.get(0).name()).isEqualTo(seed); // the newest went first
        assertThat(members("walk")).hasSize(1);

        client.resources(EtcdCluster.class).inNamespace(NS).withName("walk").edit(c -> {
            c.getSpec().setReplicas(0);
            return c;
        });
        converge("walk", 10);
        EtcdMember parked = members("walk").get(0);
        assertThat(parked.getSpec().getDormant()).isTrue();
        assertThat(client.pods().inNamespace(NS).withName(seed).get()).isNull();
        assertThat(Conditions.find(get("walk").getStatus().getConditions(), Conditions.AVAILABLE)
                        .orElseThrow()
                        .getReason())
                .isEqualTo("Paused");

        client.resources(EtcdCluster.class).inNamespace(NS).withName("walk").edit(c -> {
            c.getSpec().setReplicas(3);
            return c;
        });
        converge("walk", 40);
        assertThat(ready("walk")).isEqualTo(3);
        assertThat(etcd.byName(seed).orElseThrow().id().hex()).isEqualTo(seedId);
        assertThat(get("walk").getStatus().getClusterID()).isEqualTo(etcd.clusterId.hex());
    }

    @Test
    void aLearnerThatCouldNotStartIsRemovedWhenTheScaleUpIsRevertedAndTheEventSaysWhy() {
        create("revert", 3, "");
        converge("revert", 30);
        List<String> voters = etcd.members.stream().map(m -> m.id().hex()).toList();
        List<String> names =
                members("revert").stream().map(m -> m.getMetadata().getName()).toList();
        cordoned = true;
        client.resources(EtcdCluster.class).inNamespace(NS).withName("revert").edit(c -> {
            c.getSpec().setReplicas(4);
            return c;
        });
        converge("revert", 10);
        assertThat(etcd.members).filteredOn(m -> m.learner() && !m.started()).hasSize(1);
        String learner = members("revert").stream()
                .map(m -> m.getMetadata().getName())
                .filter(n -> !names.contains(n))
                .findFirst()
                .orElseThrow();

        client.resources(EtcdCluster.class).inNamespace(NS).withName("revert").edit(c -> {
            c.getSpec().setReplicas(3);
            return c;
        });
        converge("revert", 10);
        assertThat(etcd.members).extracting(m -> m.id().hex()).containsExactlyInAnyOrderElementsOf(voters);
        assertThat(members("revert")).hasSize(3);
        assertThat(ready("revert")).isEqualTo(3);
        assertThat(client.v1().events().inNamespace(NS).list().getItems())
                .filteredOn(e -> "MemberRemoved".equals(e.getReason()))
                .extracting(e -> e.getMessage())
                .anySatisfy(message -> assertThat(message).contains(learner, "never started", "Unschedulable"));
    }

    @Test
    void illegalChangeIsRefusedWithAConditionAndAnEventAndChangesNothing() {
        create("strict", 1, "");
        converge("strict", 10);
        assertThat(ready("strict")).isEqualTo(1);
        client.resources(EtcdCluster.class).inNamespace(NS).withName("strict").edit(c -> {
            c.getSpec().getStorage().setSize(new Quantity("512Mi"));
            c.getSpec().getStorage().setMedium("Memory");
            c.getSpec().setReplicas(3);
            return c;
        });
        converge("strict", 10);
        EtcdCluster c = get("strict");
        var degraded = Conditions.find(c.getStatus().getConditions(), Conditions.DEGRADED)
                .orElseThrow();
        assertThat(degraded.getStatus()).isEqualTo("True");
        assertThat(degraded.getReason()).isEqualTo("InvalidSpec");
        assertThat(degraded.getMessage()).contains("cannot shrink").contains("medium is immutable");
        assertThat(c.getStatus().getObserved().getReplicas()).isEqualTo(1);
        assertThat(members("strict")).hasSize(1);
        assertThat(client.v1().events().inNamespace(NS).list().getItems())
                .filteredOn(e -> "InvalidSpec".equals(e.getReason()))
                .hasSize(1);
        assertThat(Conditions.isTrue(c.getStatus().getConditions(), Conditions.AVAILABLE))
                .isTrue();
    }

    /** A Service that no EtcdCluster controls, without our labels. */
    private void someoneElsesService(String name) {
        client.services()
                .inNamespace(NS)
                .resource(new ServiceBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewSpec()
                        .addToSelector("app", "someone-else")
                        .addNewPort()
                        .withPort(80)
                        .endPort()
                        .endSpec()
                        .build())
                .create();
    }

    @Test
    void aServiceThatIsNotOursIsNeverTakenOverAndStopsTheClusterWithResourceConflict() {
        someoneElsesService("clash-client");
        create("clash", 3, "");
        converge("clash", 6);
        EtcdCluster c = get("clash");
        var degraded = Conditions.find(c.getStatus().getConditions(), Conditions.DEGRADED)
                .orElseThrow();
        assertThat(degraded.getStatus()).isEqualTo("True");
        assertThat(degraded.getReason()).isEqualTo("ResourceConflict");
        assertThat(degraded.getMessage()).contains("clash-client");
        assertThat(members("clash")).isEmpty();
        assertThat(client.services()
                        .inNamespace(NS)
                        .withName("clash-client")
                        .get()
                        .getSpec()
                        .getSelector())
                .containsExactly(Map.entry("app", "someone-else"));
        assertThat(eventReasons("clash")).containsOnlyOnce("ResourceConflict");
    }

    @Test
    void servicesComeFromTheInformerAndOneItCannotSeeIsStillNeverTakenOver() {
        // the informer selects our label: someone else's Service of the same name is never in it
        List<String> asked = new ArrayList<>();
        clusterPass.objects().readServicesFrom((namespace, name) -> {
            asked.add(name);
            return Optional.ofNullable(client.services()
                            .inNamespace(namespace)
                            .withName(name)
                            .get())
                    .filter(s -> s.getMetadata().getLabels() != null
                            && s.getMetadata().getLabels().containsKey(EtcdOperatorApi.LABEL_CLUSTER));
        });
        someoneElsesService("hidden-client");
        create("hidden", 3, "");
        converge("hidden", 6);

        assertThat(asked).contains("hidden", "hidden-client");
        var degraded = Conditions.find(get("hidden").getStatus().getConditions(), Conditions.DEGRADED)
                .orElseThrow();
        assertThat(degraded.getReason()).isEqualTo("ResourceConflict");
        assertThat(degraded.getMessage()).contains("hidden-client");
        assertThat(client.services()
                        .inNamespace(NS)
                        .withName("hidden-client")
                        .get()
                        .getSpec()
                        .getSelector())
                .containsExactly(Map.entry("app", "someone-else"));
        assertThat(client.services().inNamespace(NS).withName("hidden").get())
                .as("the headless Service, ours")
                .isNotNull();
        assertThat(members("hidden")).isEmpty();
    }

    @Test
    void theDisruptionBudgetComesFromTheInformer() {
        Class<? extends HasMetadata> type = clusterPass.objects().disruptionBudgetType();
        List<String> asked = budgetsFromAnInformer(type);
        create("budgeted", 3, "");
        converge("budgeted", 30);
        assertThat(ready("budgeted")).isEqualTo(3);
        assertThat(asked).contains("budgeted");
        HasMetadata ours =
                client.resources(type).inNamespace(NS).withName("budgeted").get();
        assertThat(ours.getMetadata().getOwnerReferences())
                .extracting(r -> r.getName())
                .containsExactly("budgeted");
        assertThat(minAvailable(ours)).isEqualTo(2);
    }

    @Test
    void aDisruptionBudgetTheInformerCannotSeeIsLeftAlone() {
        Class<? extends HasMetadata> type = clusterPass.objects().disruptionBudgetType();
        budgetsFromAnInformer(type);
        // someone else's PDB of the name (unlabelled, so never in the cache): the create gets 409, the GET finds it
        client.resource(someoneElsesBudget(type, "shadowed")).create();
        create("shadowed", 3, "");
        converge("shadowed", 30);
        assertThat(ready("shadowed"))
                .as("a PDB conflict is logged, never blocks the cluster")
                .isEqualTo(3);
        HasMetadata theirs =
                client.resources(type).inNamespace(NS).withName("shadowed").get();
        assertThat(theirs.getMetadata().getOwnerReferences()).isNullOrEmpty();
        assertThat(minAvailable(theirs)).isEqualTo(1);
    }

    @Test
    void aDisruptionBudgetThatCannotBeReadNeverHoldsTheClusterAndIsNotWritten() {
        Class<? extends HasMetadata> type = clusterPass.objects().disruptionBudgetType();
        clusterPass.objects().readDisruptionBudgetsFrom((namespace, name) -> {
            throw new KubernetesClientException("poddisruptionbudgets is forbidden", 403, null);
        });
        create("unread", 3, "");
        converge("unread", 30);
        assertThat(ready("unread")).as("the cluster forms as before").isEqualTo(3);
        assertThat(client.resources(type).inNamespace(NS).withName("unread").get())
                .as("a budget that could not be read is left alone, not created blind")
                .isNull();
    }

    /** Reads as the cluster controller's informer answers them: only PDBs with our label. */
    private List<String> budgetsFromAnInformer(Class<? extends HasMetadata> type) {
        List<String> asked = new ArrayList<>();
        clusterPass.objects().readDisruptionBudgetsFrom((namespace, name) -> {
            asked.add(name);
            return Optional.ofNullable(client.resources(type)
                            .inNamespace(namespace)
                            .withName(name)
                            .get())
                    .filter(b -> b.getMetadata().getLabels() != null
                            && b.getMetadata().getLabels().containsKey(EtcdOperatorApi.LABEL_CLUSTER));
        });
        return asked;
    }

    private static HasMetadata someoneElsesBudget(Class<? extends HasMetadata> type, String name) {
        var meta = new ObjectMetaBuilder().withName(name).withNamespace(NS).build();
        var one = new IntOrString(1);
        if (type == PodDisruptionBudget.class) {
            return new PodDisruptionBudgetBuilder()
                    .withMetadata(meta)
                    .withNewSpec()
                    .withMinAvailable(one)
                    .endSpec()
                    .build();
        }
        return new io.fabric8.kubernetes.api.model.policy.v1beta1.PodDisruptionBudgetBuilder()
                .withMetadata(meta)
                .withNewSpec()
                .withMinAvailable(one)
                .endSpec()
                .build();
    }

    private static int minAvailable(HasMetadata budget) {
        return budget instanceof PodDisruptionBudget v1
                ? v1.getSpec().getMinAvailable().getIntVal()
                : ((io.fabric8.kubernetes.api.model.policy.v1beta1.PodDisruptionBudget) budget)
                        .getSpec()
                        .getMinAvailable()
                        .getIntVal();
    }

    @Test
    void aDialThatGotNoAnswerIsNotKeptSoTheNextPassDialsAfresh() {
        create("fresh", 3, "");
        converge("fresh", 30);
        clusterPass.reconcile(NS, "fresh");
        int dials = etcd.opened;

        etcd.answering = false; // what a kept channel would remember: gRPC's reconnect back-off
        clusterPass.reconcile(NS, "fresh");
        etcd.answering = true;
        clusterPass.reconcile(NS, "fresh");
        clusterPass.reconcile(NS, "fresh");

        assertThat(etcd.opened).as("dials after the unanswered one").isEqualTo(dials + 1);
    }

    @Test
    void lostMemoryBackedPodIsReplacedByANewMember() {
        create("mem", 3, "Memory");
        converge("mem", 30);
        assertThat(ready("mem")).isEqualTo(3);
        EtcdMember victim = members("mem").stream()
                .filter(m -> !Boolean.TRUE.equals(m.getSpec().getBootstrap()))
                .findFirst()
                .orElseThrow();
        String oldId =
                etcd.byName(victim.getMetadata().getName()).orElseThrow().id().hex();
        client.pods().inNamespace(NS).withName(victim.getMetadata().getName()).delete();
        converge("mem", 40);
        assertThat(ready("mem")).isEqualTo(3);
        assertThat(members("mem"))
                .extracting(m -> m.getMetadata().getName())
                .doesNotContain(victim.getMetadata().getName());
        assertThat(etcd.members).hasSize(3).noneMatch(m -> m.id().hex().equals(oldId));
        assertThat(client.persistentVolumeClaims().inNamespace(NS).list().getItems())
                .noneMatch(p -> p.getMetadata().getName().startsWith("data-mem-"));
    }

    @Test
    void authIsEnabledOnceTheClusterConvergedAndThenLatched() {
        rootSecret("root-auth", "s3cret-pw");
        createWithAuth("guarded", "root-auth");

        converge("guarded", 30);

        EtcdCluster c = get("guarded");
        assertThat(ready("guarded")).isEqualTo(3);
        assertThat(c.getStatus().getAuthEnabled()).isTrue();
        assertThat(etcd.rootPassword).isEqualTo("s3cret-pw");
        // enabled after the last promotion, never during growth
        assertThat(etcd.changes).last().isEqualTo("auth enable");
        assertThat(etcd.changes).filteredOn("auth enable"::equals).hasSize(1);
        assertThat(eventReasons("guarded")).filteredOn("AuthEnabled"::equals).hasSize(1);
        assertThat(Conditions.find(c.getStatus().getConditions(), Conditions.PROGRESSING)
                        .orElseThrow()
                        .getReason())
                .isEqualTo("Reconciled");
        int probes = etcd.authProbes;
        converge("guarded", 3);
        assertThat(etcd.authProbes).as("no auth probe once latched").isEqualTo(probes);
        assertThat(appliedPassword("guarded"))
                .as("the operator's copy of what etcd has")
                .isEqualTo("s3cret-pw");

        // a new password in the user's Secret: etcd takes it through its auth API, the copy follows, nothing restarts
        Map<String, String> pods = podUids("guarded");
        client.secrets().inNamespace(NS).withName("root-auth").edit(secret -> {
            secret.setData(base64(Map.of("username", "root", "password", "n3w-pw")));
            return secret;
        });
        converge("guarded", 3);
        assertThat(etcd.rootPassword).isEqualTo("n3w-pw");
        assertThat(appliedPassword("guarded")).isEqualTo("n3w-pw");
        assertThat(etcd.changes).filteredOn("root password changed"::equals).hasSize(1);
        assertThat(eventReasons("guarded")).contains("RootPasswordChanged");
        assertThat(podUids("guarded")).as("no member restarted").isEqualTo(pods);
        assertThat(client.getKubernetesSerialization().asJson(get("guarded").getStatus()))
                .doesNotContain("n3w-pw")
                .doesNotContain("s3cret-pw");
    }

    private String appliedPassword(String cluster) {
        var secret = client.secrets()
                .inNamespace(NS)
                .withName(cluster + "-root-applied")
                .get();
        return secret == null
                ? null
                : new String(Base64.getDecoder().decode(secret.getData().get("password")));
    }

    @Test
    void aMissingPasswordKeepsAuthOffWithANamedReasonAndNeverLeaksIntoStatus() {
        rootSecret("empty-auth", "");
        createWithAuth("nopass", "empty-auth");

        converge("nopass", 30);

        EtcdCluster c = get("nopass");
        assertThat(ready("nopass")).isEqualTo(3);
        assertThat(c.getStatus().getAuthEnabled()).isNotEqualTo(Boolean.TRUE);
        assertThat(etcd.auth).isFalse();
        var progressing = Conditions.find(c.getStatus().getConditions(), Conditions.PROGRESSING)
                .orElseThrow();
        assertThat(progressing.getStatus()).isEqualTo("True");
        assertThat(progressing.getReason()).isEqualTo("AuthSecretInvalid");
        assertThat(progressing.getMessage()).contains("empty-auth").contains("'password'");
        assertThat(eventReasons("nopass"))
                .filteredOn("AuthSecretInvalid"::equals)
                .hasSize(1);

        client.secrets().inNamespace(NS).withName("empty-auth").delete();
        rootSecret("empty-auth", "fixed-pw");
        converge("nopass", 2);
        assertThat(get("nopass").getStatus().getAuthEnabled()).isTrue();
        assertThat(etcd.rootPassword).isEqualTo("fixed-pw");
    }

    @Test
    void authAlreadyOnInEtcdIsLatchedWithoutEnablingAgain() {
        rootSecret("restored-auth", "pw");
        etcd.auth = true; // say, a restored snapshot of an auth-enabled cluster, or a crash before the status write
        createWithAuth("already", "restored-auth");

        converge("already", 30);

        assertThat(get("already").getStatus().getAuthEnabled()).isTrue();
        assertThat(etcd.changes).doesNotContain("auth enable");
        assertThat(etcd.rootPassword).isNull();
    }

    @Test
    void withoutSpecAuthEtcdIsNeverAskedAboutAuth() {
        create("open", 3, "");
        converge("open", 30);

        assertThat(ready("open")).isEqualTo(3);
        assertThat(etcd.authProbes).isZero();
        assertThat(get("open").getStatus().getAuthEnabled()).isNotEqualTo(Boolean.TRUE);
    }
}
