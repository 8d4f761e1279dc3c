package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.pki.CertificateAuthority;
import io.etcdoperator.pki.CertifiedKey;
import io.etcdoperator.pki.ClusterDnsNames;
import io.etcdoperator.pki.LeafProfile;
import io.etcdoperator.pki.SubjectAltNames;
import io.etcdoperator.pki.Validity;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** TLS on local Kubernetes: operator-issued, and bring-your-own Secrets made with the project's PKI. */
@ExtendWith(LocalKubernetesExtension.class)
class TlsE2EIT {

  private static final Duration READY = Duration.ofMinutes(5);

  /** Both clusters form at the same time; each test then waits for its own. */
  /** Where kube-apiserver's audit log ended before the clusters were created. */
  private static long created;

  @BeforeAll
  static void createClusters(E2eEnvironment env) {
    created = new ApiServerAudit(env.kube().controlPlane().auditLog()).mark();
    env.createCluster(env.namespace("tls-issued"), "secure", Map.of("replicas", 3, "version", "3.5.16",
        "storage", Map.of("medium", "Memory", "size", "256Mi"), "tls", Map.of("operatorIssued", Map.of())));
    createOwnTlsCluster(env, env.namespace("tls-byo"));
  }

  /** Secrets made with the project's PKI (a CA, server, peer and operator-client leaves) and the cluster "own". */
  private static void createOwnTlsCluster(E2eEnvironment env, String ns) {
    ClusterDnsNames names = new ClusterDnsNames("own", ns, "cluster.local");
    Validity year = Validity.starting(Instant.now(), Duration.ofDays(365), Duration.ofMinutes(5));
    CertificateAuthority ca = CertificateAuthority.create("own", year);
    Secret server = tlsSecret(ns, "own-server", ca, ca.issue(LeafProfile.SERVER, "own-server", names.server(), year));
    Secret operatorClient = tlsSecret(ns, "own-operator", ca,
        ca.issue(LeafProfile.OPERATOR_CLIENT, "etcd-operator", SubjectAltNames.NONE, year));
    Secret peer = tlsSecret(ns, "own-peer", ca, ca.issue(LeafProfile.PEER, "own-peer", names.peer(), year));
    for (Secret secret : List.of(server, operatorClient, peer)) {
      env.client().secrets().inNamespace(ns).resource(secret).create();
    }
    env.createCluster(ns, "own", Map.of("replicas", 3, "version", "3.5.16", "storage", Map.of("size", "256Mi"),
        "tls", Map.of(
            "client", Map.of("serverSecretRef", Map.of("name", "own-server"),
                "operatorClientSecretRef", Map.of("name", "own-operator")),
            "peer", Map.of("secretRef", Map.of("name", "own-peer")))));
  }

  @Test
  void operatorIssuedTlsClusterServesMutualTlsOnlyAndRefusesPlainClients(E2eEnvironment env) throws Exception {
    String ns = "tls-issued";
    env.awaitReady(ns, "secure", 3, READY);
    System.out.printf("secure (operator-issued TLS) READY=3 within %d s of its creation%n",
        env.sinceCreated(ns, "secure").toSeconds());

    Secret client = env.client().secrets().inNamespace(ns).withName("secure-operator-client-tls").get();
    assertThat(client).as("operator-client Secret").isNotNull();
    assertMutualTlsOnly(env, ns, "secure", client);
  }

  @Test
  void bringYourOwnSecretsGiveClientMutualTlsAndPeerTls(E2eEnvironment env) throws Exception {
    String ns = "tls-byo";
    Secret operatorClient = env.client().secrets().inNamespace(ns).withName("own-operator").get();
    env.awaitReady(ns, "own", 3, READY);
    System.out.printf("own (bring-your-own client mTLS + peer TLS) READY=3 within %d s of its creation%n",
        env.sinceCreated(ns, "own").toSeconds());

    Path[] files = assertMutualTlsOnly(env, ns, "own", operatorClient);
    Pod pod = env.memberPods(ns, "own").getFirst();
    String list = "etcdctl --endpoints=https://own-client." + ns + ".svc:2379" + tlsFlags(files) + " member list";
    assertThat(env.exec(ns, pod, List.of("sh", "-c",
        "test \"$(" + list + " | grep -c 'https://[^,]*:2380')\" = 3 && ! " + list + " | grep -q 'http://'")))
        .as("three members whose peer (and client) URLs are all https").isZero();
  }

  /**
   * Issue 25: settled TLS clusters are looked at on the caches (no watch on Secrets). The operator's own Secrets are
   * read again every 5 minutes, a user's every minute, each alone: a window of four periodic passes (90-120 s) that
   * ends before the issued cluster's re-read sends nothing for it and only GETs of its Secrets for the BYO one.
   */
  @Test
  void settledTlsClustersSendNothingButRereadsOfTheUsersSecrets(E2eEnvironment env) {
    Map<String, String> clusters = Map.of("tls-issued", "secure", "tls-byo", "own");
    clusters.forEach((ns, name) -> env.awaitReady(ns, name, 3, READY));
    var audit = new ApiServerAudit(env.kube().controlPlane().auditLog());
    Instant[] lastRead = {Instant.EPOCH};
    java.util.function.Consumer<List<ApiServerAudit.Request>> reads = sent -> sent.stream()
        .filter(r -> r.resource().equals("secrets") && r.namespace().equals("tls-issued"))
        .map(ApiServerAudit.Request::received).max(Instant::compareTo).filter(t -> t.isAfter(lastRead[0]))
        .ifPresent(t -> lastRead[0] = t);
    reads.accept(audit.operatorRequestsSince(created));
    Await.until("a pass of both sending only Secret GETs, within 150 s of the issued Secrets' last read",
        Duration.ofMinutes(8), () -> {
          List<ApiServerAudit.Request> sent = SettledPasses.requestsInOnePass(env, audit, clusters);
          reads.accept(sent);
          // the next window (four passes of 30 s) must end before the issued Secrets' re-read, 5 min after the last
          return sent.stream().allMatch(TlsE2EIT::userSecretRead)
              && Instant.now().isBefore(lastRead[0].plus(Duration.ofSeconds(150)));
        });
    long passes = SettledPasses.cachePasses(env, "etcdcluster");
    List<ApiServerAudit.Request> sent = SettledPasses.requestsInPasses(env, audit, clusters, 4);
    assertThat(sent).as("the operator's requests for two settled TLS clusters, the issued Secrets read %s",
        lastRead[0]).allMatch(TlsE2EIT::userSecretRead);
    assertThat(sent.stream().filter(r -> r.name().equals("own-server")))
        .as("the user's server Secret, read once a minute or so").hasSizeBetween(1, 3);
    assertThat(SettledPasses.cachePasses(env, "etcdcluster")).as("passes that ran on the caches")
        .isGreaterThanOrEqualTo(passes + 8);
  }

  private static boolean userSecretRead(ApiServerAudit.Request r) {
    return r.namespace().equals("tls-byo") && r.resource().equals("secrets") && r.verb().equals("get");
  }

  /** mTLS put and get through the client Service work; no client certificate, or plain http, is refused. */
  private static Path[] assertMutualTlsOnly(E2eEnvironment env, String ns, String cluster, Secret client)
      throws IOException {
    Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "tls-e2e-");
    Path[] files = {write(dir, "ca.crt", client), write(dir, "tls.crt", client), write(dir, "tls.key", client)};
    // Clients use the Service name: the server certificate names DNS names, not Pod IPs.
    Pod pod = env.memberPods(ns, cluster).getFirst();
    String service = "--endpoints=https://" + cluster + "-client." + ns + ".svc:2379";
    String tls = tlsFlags(files);
    assertThat(env.exec(ns, pod, List.of("sh", "-c", "etcdctl " + service + tls + " put secret-key tls-works")))
        .as("mTLS put through the client Service").isZero();
    assertThat(env.exec(ns, pod, List.of("sh", "-c",
        "test \"$(etcdctl " + service + tls + " get secret-key --print-value-only)\" = tls-works")))
        .as("mTLS get through the client Service").isZero();
    assertThat(env.exec(ns, pod, List.of("sh", "-c", "etcdctl " + service + " --cacert=" + files[0]
        + " --command-timeout=5s get secret-key"))).as("a client without a certificate is refused").isNotZero();
    assertThat(env.exec(ns, pod, List.of("sh", "-c", "etcdctl --endpoints=http://" + cluster + "-client." + ns
        + ".svc:2379 --command-timeout=5s get secret-key"))).as("plain http is refused").isNotZero();
    return files;
  }

  private static String tlsFlags(Path[] files) {
    return " --cacert=" + files[0] + " --cert=" + files[1] + " --key=" + files[2];
  }

  private static Secret tlsSecret(String ns, String name, CertificateAuthority ca, CertifiedKey leaf) {
    return new SecretBuilder().withNewMetadata().withName(name).withNamespace(ns).endMetadata()
        .withType("kubernetes.io/tls")
        .addToData("tls.crt", base64(leaf.certificatePem()))
        .addToData("tls.key", base64(leaf.privateKeyPem()))
        .addToData("ca.crt", base64(ca.signer().certificatePem()))
        .build();
  }

  private static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
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
