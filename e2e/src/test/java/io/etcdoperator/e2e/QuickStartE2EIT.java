package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.List;
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
    System.out.printf("my-etcd (PVC) READY=3 within %d s of its creation%n",
        env.sinceCreated(ns, "my-etcd").toSeconds());

    assertThat(env.client().persistentVolumeClaims().inNamespace(ns).list().getItems()).hasSize(3)
        .allSatisfy(pvc -> assertThat(pvc.getStatus().getPhase()).isEqualTo("Bound"));
    assertThat(env.etcdctl(env.endpoints(ns, "my-etcd"), "member", "list")).contains("started").hasLineCount(3)
        .doesNotContain("true");  // the last column is isLearner: no learner left
    assertServesThroughClientService(env, ns, "my-etcd");
  }

  @Test
  void threeMembersOnMemoryServeThroughTheClientService(E2eEnvironment env) {
    String ns = "quickstart-memory";
    env.awaitReady(ns, "my-mem-etcd", 3, READY);
    System.out.printf("my-mem-etcd (Memory) READY=3 within %d s of its creation%n",
        env.sinceCreated(ns, "my-mem-etcd").toSeconds());

    assertThat(env.client().persistentVolumeClaims().inNamespace(ns).list().getItems()).isEmpty();
    assertServesThroughClientService(env, ns, "my-mem-etcd");
  }

  /** A client inside the cluster (here: a member Pod's network and hosts file) writes and reads by Service name. */
  private static void assertServesThroughClientService(E2eEnvironment env, String ns, String cluster) {
    Pod pod = env.memberPods(ns, cluster).getFirst();
    String service = "http://" + cluster + "-client." + ns + ".svc:2379";
    assertThat(env.exec(ns, pod, List.of("etcdctl", "--endpoints=" + service, "put", "greeting", "hello-" + ns)))
        .as("put through %s", service).isZero();
    assertThat(env.exec(ns, pod, List.of("sh", "-c",
        "test \"$(etcdctl --endpoints=" + service + " get greeting --print-value-only)\" = hello-" + ns)))
        .as("get through %s", service).isZero();
    assertThat(env.etcdctl(env.endpoints(ns, cluster), "get", "greeting", "--print-value-only").strip())
        .isEqualTo("hello-" + ns);
  }
}
