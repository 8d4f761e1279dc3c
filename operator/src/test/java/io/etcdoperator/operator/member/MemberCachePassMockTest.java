package io.etcdoperator.operator.member;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.StorageSpec;
import io.etcdoperator.operator.MockCrds;
import io.etcdoperator.operator.cluster.EtcdDialer;
import io.etcdoperator.operator.config.OperatorConfig;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.informer.ObjectCopies;
import io.etcdoperator.operator.reads.CachePass;
import io.etcdoperator.operator.reads.KubeReads;
import io.etcdoperator.operator.resources.Labels;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Read-your-own-writes in the member controller: a pass starts on the caches unless they may lag a status write of
 * its own, and a pass whose status would change is decided again on the API server. Requests are counted on the
 * mock API server.
 */
@EnableKubernetesMockClient(crud = true)
class MemberCachePassMockTest {

    static KubernetesClient client;
    static KubernetesMockServer server;
    private static final String NS = "default";
    private static final String PATH = "/apis/etcd-operator.cozystack.io/v1alpha2/namespaces/default/";
    private static final String CORE = "/api/v1/namespaces/default/";

    private final MeterRegistry registry = new SimpleMeterRegistry();
    private KubernetesClient guarded;
    private EtcdMemberReconciler reconciler;
    private Pod pod;

    @BeforeEach
    void setUp() {
        MockCrds.install(client);
        guarded = new KubernetesClientBuilder()
                .withConfig(client.getConfiguration())
                .withHttpClientBuilderConsumer(CachePass::guard)
                .build();
        Clock clock = Clock.systemUTC();
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
                new EtcdDialer(guarded, null, Duration.ofSeconds(1)),
                new EventRecorder(guarded, "test", clock),
                config,
                clock);
        reconciler = new EtcdMemberReconciler(pass, () -> Optional.of(caches()), cache -> {}, CachePass.on(guarded));
    }

    @AfterEach
    void close() {
        guarded.close();
    }

    /** A memory member whose Pod runs and is not Ready yet: its report says so and asks again soon. */
    private EtcdMember member(String name) {
        EtcdMember member = new EtcdMember();
        member.getMetadata().setName(name);
        member.getMetadata().setNamespace(NS);
        member.getMetadata().setLabels(Map.of(EtcdOperatorApi.LABEL_CLUSTER, "demo"));
        EtcdMemberSpec spec = new EtcdMemberSpec();
        spec.setClusterName("demo");
        spec.setVersion("3.5.16");
        spec.setInitialCluster(name + "=http://" + name + ".demo.default.svc:2380");
        StorageSpec storage = new StorageSpec();
        storage.setMedium("Memory");
        spec.setStorage(storage);
        member.setSpec(spec);
        EtcdMember created = client.resource(member).create();
        pod = client.resource(new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(NS)
                        .withLabels(Labels.member("demo", name))
                        .addNewOwnerReference()
                        .withApiVersion("etcd-operator.cozystack.io/v1alpha2")
                        .withKind("EtcdMember")
                        .withName(name)
                        .withUid(created.getMetadata().getUid())
                        .withController(true)
                        .endOwnerReference()
                        .endMetadata()
                        .withNewStatus()
                        .withPhase("Running")
                        .endStatus()
                        .build())
                .create();
        return created;
    }

    private EtcdMember read(String name) {
        return client.resources(EtcdMember.class).inNamespace(NS).withName(name).get();
    }

    /** The requests of a pass as JOSDK starts it, with {@code cached} as its primary cache holds the member. */
    private List<String> requestsOfPass(EtcdMember cached) throws InterruptedException {
        while (server.takeRequest(1, TimeUnit.MILLISECONDS) != null) {} // those of the test's own calls
        int before = server.getRequestCount();
        reconciler.reconcile(ObjectCopies.of(cached), context());
        List<String> sent = new ArrayList<>();
        for (int i = before; i < server.getRequestCount(); i++) {
            RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
            sent.add(request.getMethod() + " "
                    + request.getPath().replace(PATH, "").replace(CORE, ""));
        }
        return sent;
    }

    @Test
    void theEchoOfOurOwnStatusWriteIsLookedAtOnTheCachesAndSendsNothing() throws InterruptedException {
        EtcdMember created = member("demo-a");

        assertThat(requestsOfPass(created))
                .as("a new status, decided on the API server")
                .containsExactly("GET etcdmembers/demo-a", "GET pods/demo-a", "PUT etcdmembers/demo-a/status");
        EtcdMember written = read("demo-a");
        assertThat(written.getMetadata().getResourceVersion())
                .isNotEqualTo(created.getMetadata().getResourceVersion());
        assertThat(Conditions.find(written.getStatus().getConditions(), Conditions.READY)
                        .orElseThrow()
                        .getReason())
                .isEqualTo("PodNotReady");

        assertThat(requestsOfPass(written))
                .as("the cache shows our write; the status is as it should be")
                .isEmpty();
    }

    @Test
    void aCacheThatMayLagOurWriteSendsThePassToTheApiServerWhichWritesNothingAgain() throws InterruptedException {
        EtcdMember created = member("demo-b");
        requestsOfPass(created);
        String afterWrite = read("demo-b").getMetadata().getResourceVersion();

        // a Pod event woke the member before the informer had seen our status write
        double tried = cachePasses("api_server");
        assertThat(requestsOfPass(created))
                .as("read again, and no second write")
                .containsExactly("GET etcdmembers/demo-b", "GET pods/demo-b");
        assertThat(cachePasses("api_server"))
                .as("not tried on the caches first")
                .isEqualTo(tried);
        assertThat(read("demo-b").getMetadata().getResourceVersion()).isEqualTo(afterWrite);

        assertThat(requestsOfPass(read("demo-b")))
                .as("then the echo, on the caches")
                .isEmpty();
    }

    @Test
    void aPassThatWouldActOnTheCachesIsDecidedAgainOnTheApiServer() throws InterruptedException {
        EtcdMember created = member("demo-c");
        requestsOfPass(created);
        EtcdMember written = read("demo-c");
        // the cluster controller made it a voter: its Pod's role label must follow, a write
        written.getStatus().setIsVoter(true);
        EtcdMember voter = client.resource(written).updateStatus();

        assertThat(requestsOfPass(voter))
                .as("the cache pass stopped at its first write; the API server's pass patched the Pod")
                .startsWith("GET etcdmembers/demo-c", "GET pods/demo-c")
                .endsWith("PATCH pods/demo-c")
                .noneMatch(r -> r.startsWith("PUT"));
        assertThat(client.pods()
                        .inNamespace(NS)
                        .withName("demo-c")
                        .get()
                        .getMetadata()
                        .getLabels())
                .containsEntry(EtcdOperatorApi.LABEL_ROLE, EtcdOperatorApi.ROLE_VOTER);
    }

    @Test
    void aReadTheCachesDoNotCoverSendsThePassToTheApiServer() throws InterruptedException {
        EtcdMember created = member("demo-d");
        pod = client.resource(new PodBuilder(pod)
                        .editStatus()
                        .addNewCondition()
                        .withType("Ready")
                        .withStatus("True")
                        .endCondition()
                        .endStatus()
                        .build())
                .updateStatus();

        // a Ready Pod's member with no id: the pass looks its cluster up to dial etcd, a read of the API server
        assertThat(requestsOfPass(created))
                .as("the cache pass stopped at the read; the API server's pass asked and reported")
                .startsWith("GET etcdmembers/demo-d", "GET pods/demo-d", "GET etcdclusters/demo")
                .endsWith("PUT etcdmembers/demo-d/status");
        assertThat(Conditions.find(read("demo-d").getStatus().getConditions(), Conditions.READY)
                        .orElseThrow()
                        .getMessage())
                .isEqualTo("waiting for memberID: cluster not found");
    }

    private double cachePasses(String result) {
        return registry
                .find("etcd_operator_cache_passes")
                .tags("controller", "etcdmember", "result", result)
                .counters()
                .stream()
                .mapToDouble(c -> c.count())
                .sum();
    }

    /** The JOSDK context a pass reads: its Pod as the member controller's own informer saw it, and the client. */
    @SuppressWarnings("unchecked")
    private Context<EtcdMember> context() {
        return (Context<EtcdMember>) Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {Context.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getSecondaryResource" -> args[0] == Pod.class ? Optional.of(pod) : Optional.empty();
                    case "getClient" -> guarded;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** The cluster controller's caches, as far as a member pass reads them: the member's Pod. */
    private KubeReads caches() {
        return new KubeReads() {
            @Override
            public Optional<EtcdCluster> cluster(String namespace, String name) {
                return Optional.empty();
            }

            @Override
            public List<EtcdMember> members(String namespace, String cluster) {
                return List.of();
            }

            @Override
            public List<Pod> pods(String namespace, String cluster) {
                return List.of(pod);
            }

            @Override
            public Optional<Pod> pod(String namespace, String name) {
                return Optional.of(new PodBuilder(pod).build());
            }

            @Override
            public List<PersistentVolumeClaim> volumes(String namespace, String cluster) {
                return List.of();
            }

            @Override
            public Optional<PersistentVolumeClaim> volume(String namespace, String name) {
                return Optional.empty();
            }

            @Override
            public List<EtcdDefrag> defrags(String namespace) {
                return List.of();
            }
        };
    }
}
