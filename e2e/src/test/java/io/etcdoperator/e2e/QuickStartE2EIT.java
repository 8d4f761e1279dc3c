package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The seeds' quick-start manifests (config/samples) on local Kubernetes: READY=3, reads and writes by Service name. */
@ExtendWith(LocalKubernetesExtension.class)
class QuickStartE2EIT {

    private static final Duration READY = Duration.ofMinutes(4);

    /** Both samples form at the same time; each test then waits for its own. */
    @BeforeAll
    static void createClusters(E2eEnvironment env) {
        env.createFromSample("etcdcluster.yaml", env.namespace("quickstart-disk"));
        env.createFromSample("etcdcluster-memory.yaml", env.namespace("quickstart-memory"));
    }

    @Test
    void threeMembersOnPvcsServeThroughTheClientService(E2eEnvironment env) {
        String ns = "quickstart-disk";
        env.awaitReady(ns, "my-etcd", 3, READY);
        System.out.printf(
                "my-etcd (PVC) READY=3 within %d s of its creation%n",
                env.sinceCreated(ns, "my-etcd").toSeconds());

        assertThat(env.client().persistentVolumeClaims().inNamespace(ns).list().getItems())
                .hasSize(3)
                .allSatisfy(pvc -> assertThat(pvc.getStatus().getPhase()).isEqualTo("Bound"));
        assertThat(env.etcdctl(env.endpoints(ns, "my-etcd"), "member", "list"))
                .contains("started")
                .hasLineCount(3)
                .doesNotContain("true"); // the last column is isLearner: no learner left
        assertServesThroughClientService(env, ns, "my-etcd");
    }

    @Test
    void threeMembersOnMemoryServeThroughTheClientService(E2eEnvironment env) {
        String ns = "quickstart-memory";
        env.awaitReady(ns, "my-mem-etcd", 3, READY);
        System.out.printf(
                "my-mem-etcd (Memory) READY=3 within %d s of its creation%n",
                env.sinceCreated(ns, "my-mem-etcd").toSeconds());

        assertThat(env.client().persistentVolumeClaims().inNamespace(ns).list().getItems())
                .isEmpty();
        assertServesThroughClientService(env, ns, "my-mem-etcd");
    }

    /**
     * Issue 25: once settled, both clusters' periodic passes read the informers' caches: kube-apiserver's audit log shows
     * no request from the operator in their namespaces (watches and its Lease aside; the suite's other clusters, some
     * with TLS, share the operator). An edit of every EtcdMember then wakes the member
     * controller, whose passes read caches too; the cluster controller, woken by the same edit, may read the API server
     * once where its own cache and the member controller's have not both seen it yet.
     */
    @Test
    void settledClustersAreLookedAtWithoutAnyRequestToTheApiServer(E2eEnvironment env) {
        Map<String, String> clusters = Map.of("quickstart-disk", "my-etcd", "quickstart-memory", "my-mem-etcd");
        clusters.forEach((ns, name) -> env.awaitReady(ns, name, 3, READY));
        var audit = new ApiServerAudit(env.kube().controlPlane().auditLog());
        assertThat(audit.operatorRequestsSince(0))
                .as("the audit log tells the operator's requests (it formed both)")
                .anyMatch(r -> r.verb().equals("create") && r.resource().equals("pods"));
        // settled: the status written after READY=3 is in the caches, and a pass of each sends nothing
        Await.until(
                "a pass of both clusters without a request",
                Duration.ofMinutes(3),
                () -> SettledPasses.requestsInOnePass(env, audit, clusters).isEmpty());
        assertThat(SettledPasses.requestsInPasses(env, audit, clusters, 2))
                .as("the operator's requests for these clusters while they were settled")
                .isEmpty();

        long edited = audit.mark();
        long memberPasses = SettledPasses.cachePasses(env, "etcdmember");
        clusters.forEach((ns, name) -> env.members(ns, name)
                .forEach(m -> env.client()
                        .genericKubernetesResources(m.getApiVersion(), m.getKind())
                        .inNamespace(ns)
                        .withName(m.getMetadata().getName())
                        .patch(
                                PatchContext.of(PatchType.JSON_MERGE),
                                "{\"metadata\":{\"annotations\":{\"e2e/touched\":\"1\"}}}")));
        Await.until(
                "a pass of each edited member on the caches",
                Duration.ofMinutes(2),
                () -> SettledPasses.cachePasses(env, "etcdmember") >= memberPasses + 6);
        List<ApiServerAudit.Request> afterEdit = audit.operatorRequestsSince(edited).stream()
                .filter(r -> clusters.containsKey(r.namespace()))
                .toList();
        System.out.printf(
                "six EtcdMembers edited: %d member passes on the caches, %d requests (%s)%n",
                SettledPasses.cachePasses(env, "etcdmember") - memberPasses, afterEdit.size(), afterEdit);
        assertThat(afterEdit)
                .as("a member pass reads its member, Pod or claim by name; none did")
                .noneMatch(r -> r.verb().equals("get")
                        && List.of("etcdmembers", "pods", "persistentvolumeclaims")
                                .contains(r.resource()));
    }

    /** A client inside the cluster (here: a member Pod's network and hosts file) writes and reads by Service name. */
    private static void assertServesThroughClientService(E2eEnvironment env, String ns, String cluster) {
        Pod pod = env.memberPods(ns, cluster).getFirst();
        String service = "http://" + cluster + "-client." + ns + ".svc:2379";
        assertThat(env.exec(ns, pod, List.of("etcdctl", "--endpoints=" + service, "put", "greeting", "hello-" + ns)))
                .as("put through %s", service)
                .isZero();
        assertThat(env.exec(
                        ns,
                        pod,
                        List.of(
                                "sh",
                                "-c",
                                "test \"$(etcdctl --endpoints=" + service
                                        + " get greeting --print-value-only)\" = hello-" + ns)))
                .as("get through %s", service)
                .isZero();
        assertThat(env.etcdctl(env.endpoints(ns, cluster), "get", "greeting", "--print-value-only")
                        .strip())
                .isEqualTo("hello-" + ns);
    }
}
