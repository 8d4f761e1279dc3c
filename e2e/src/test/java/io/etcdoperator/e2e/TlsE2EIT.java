package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Operator-issued TLS on local Kubernetes: the operator's CA signs every leaf; clients need its operator-client cert. */
@ExtendWith(LocalKubernetesExtension.class)
class TlsE2EIT {

  private static final Duration READY = Duration.ofMinutes(5);

  @Test
  void operatorIssuedTlsClusterServesMutualTlsOnlyAndRefusesPlainClients(E2eEnvironment env) throws Exception {
    String ns = env.namespace("tls-issued");
    env.createCluster(ns, "secure", Map.of("replicas", 3, "version", "3.5.16",
        "storage", Map.of("medium", "Memory", "size", "256Mi"), "tls", Map.of("operatorIssued", Map.of())));

    Duration took = env.awaitReady(ns, "secure", 3, READY);
    System.out.printf("secure (operator-issued TLS) READY=3 after %d ms%n", took.toMillis());

    Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "tls-e2e-");
    Secret client = env.client().secrets().inNamespace(ns).withName("secure-operator-client-tls").get();
    assertThat(client).as("operator-client Secret").isNotNull();
    Path cert = write(dir, "tls.crt", client);
    Path key = write(dir, "tls.key", client);
    Path ca = write(dir, "ca.crt", client);
    // Clients use the Service name: the server certificate names DNS names, not Pod IPs.
    Pod pod = env.memberPods(ns, "secure").getFirst();
    String service = "--endpoints=https://secure-client." + ns + ".svc:2379";
    String tls = " --cacert=" + ca + " --cert=" + cert + " --key=" + key;
    assertThat(env.exec(ns, pod, List.of("sh", "-c", "etcdctl " + service + tls + " put secret-key tls-works")))
        .as("mTLS put through the client Service").isZero();
    assertThat(env.exec(ns, pod, List.of("sh", "-c",
        "test \"$(etcdctl " + service + tls + " get secret-key --print-value-only)\" = tls-works")))
        .as("mTLS get through the client Service").isZero();
    assertThat(env.exec(ns, pod, List.of("sh", "-c", "etcdctl " + service + " --cacert=" + ca
        + " --command-timeout=5s get secret-key"))).as("a client without a certificate is refused").isNotZero();
    assertThat(env.exec(ns, pod, List.of("sh", "-c", "etcdctl --endpoints=http://secure-client." + ns
        + ".svc:2379 --command-timeout=5s get secret-key"))).as("plain http is refused").isNotZero();
  }

  private static Path write(Path dir, String key, Secret secret) {
    try {
      Path file = dir.resolve(key);
      Files.write(file, Base64.getDecoder().decode(secret.getData().get(key)));
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
