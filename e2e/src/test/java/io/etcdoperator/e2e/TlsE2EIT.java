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
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** TLS on local Kubernetes: operator-issued, and bring-your-own Secrets made with the project's PKI. */
@ExtendWith(LocalKubernetesExtension.class)
class TlsE2EIT {

    private static final Duration READY = Duration.ofMinutes(5);

    /** Both clusters form at the same time; each test then waits for its own. */
    @BeforeAll
    static void createClusters(E2eEnvironment env) {
        env.createCluster(
                env.namespace("tls-issued"),
                "secure",
                Map.of(
                        "replicas",
                        3,
                        "version",
                        "3.5.16",
                        "storage",
                        Map.of("medium", "Memory", "size", "256Mi"),
                        "tls",
                        Map.of("operatorIssued", Map.of())));
        createOwnTlsCluster(env, env.namespace("tls-byo"));
    }

    /** Secrets made with the project's PKI (a CA, server, peer and operator-client leaves) and the cluster "own". */
    private static void createOwnTlsCluster(E2eEnvironment env, String ns) {
        ClusterDnsNames names = new ClusterDnsNames("own", ns, "cluster.local");
        Validity year = Validity.starting(Instant.now(), Duration.ofDays(365), Duration.ofMinutes(5));
        CertificateAuthority ca = CertificateAuthority.create("own", year);
        Secret server =
                tlsSecret(ns, "own-server", ca, ca.issue(LeafProfile.SERVER, "own-server", names.server(), year));
        Secret operatorClient = tlsSecret(
                ns,
                "own-operator",
                ca,
                ca.issue(LeafProfile.OPERATOR_CLIENT, "etcd-operator", SubjectAltNames.NONE, year));
        Secret peer = tlsSecret(ns, "own-peer", ca, ca.issue(LeafProfile.PEER, "own-peer", names.peer(), year));
        for (Secret secret : List.of(server, operatorClient, peer)) {
            env.client().secrets().inNamespace(ns).resource(secret).create();
        }
        env.createCluster(
                ns,
                "own",
                Map.of(
                        "replicas",
                        3,
                        "version",
                        "3.5.16",
                        "storage",
                        Map.of("size", "256Mi"),
                        "tls",
                        Map.of(
                                "client",
                                        Map.of(
                                                "serverSecretRef",
                                                Map.of("name", "own-server"),
                                                "operatorClientSecretRef",
                                                Map.of("name", "own-operator")),
                                "peer", Map.of("secretRef", Map.of("name", "own-peer")))));
    }

    @Test
    void operatorIssuedTlsClusterServesMutualTlsOnlyAndRefusesPlainClients(E2eEnvironment env) throws Exception {
        String ns = "tls-issued";
        env.awaitReady(ns, "secure", 3, READY);
        System.out.printf(
                "secure (operator-issued TLS) READY=3, checked %d s after its creation (other tests of the class may run first)%n",
                env.sinceCreated(ns, "secure").toSeconds());

        Secret client = env.client()
                .secrets()
                .inNamespace(ns)
                .withName("secure-operator-client-tls")
                .get();
        assertThat(client).as("operator-client Secret").isNotNull();
        assertMutualTlsOnly(env, ns, "secure", client);
        assertCertificateGauges(env, ns, "secure");
    }

    /** The leaves (90 days by default) expire first, and are due for renewal at two thirds of their life. */
    private static void assertCertificateGauges(E2eEnvironment env, String ns, String cluster) {
        long now = Instant.now().getEpochSecond();
        Map<String, String> labels = Map.of("namespace", ns, "cluster", cluster);
        long expiry = (long) env.operator().gauge("etcd_operator_cluster_certificate_expiry_timestamp_seconds", labels);
        long renewal =
                (long) env.operator().gauge("etcd_operator_cluster_certificate_renewal_timestamp_seconds", labels);
        assertThat(expiry).as("first expiry").isBetween(now + 89 * 86_400L, now + 90 * 86_400L);
        assertThat(renewal).as("first renewal").isBetween(now + 59 * 86_400L, now + 60 * 86_400L);
        System.out.printf(
                "%s: certificates first due for renewal in %d days, first expire in %d days%n",
                cluster, (renewal - now) / 86_400, (expiry - now) / 86_400);
    }

    @Test
    void bringYourOwnSecretsGiveClientMutualTlsAndPeerTls(E2eEnvironment env) throws Exception {
        String ns = "tls-byo";
        Secret operatorClient =
                env.client().secrets().inNamespace(ns).withName("own-operator").get();
        env.awaitReady(ns, "own", 3, READY);
        System.out.printf(
                "own (bring-your-own client mTLS + peer TLS) READY=3, checked %d s after its creation (other tests of the class may run first)%n",
                env.sinceCreated(ns, "own").toSeconds());

        Path[] files = assertMutualTlsOnly(env, ns, "own", operatorClient);
        Pod pod = env.memberPods(ns, "own").getFirst();
        String list = "etcdctl --endpoints=https://own-client." + ns + ".svc:2379" + tlsFlags(files) + " member list";
        assertThat(env.exec(
                        ns,
                        pod,
                        List.of(
                                "sh",
                                "-c",
                                "test \"$(" + list + " | grep -c 'https://[^,]*:2380')\" = 3 && ! " + list
                                        + " | grep -q 'http://'")))
                .as("three members whose peer (and client) URLs are all https")
                .isZero();
    }

    /**
     * Issue 25: settled TLS clusters are looked at on the caches (no watch on Secrets). The operator's own Secrets are
     * read again every 5 minutes, a user's every minute, each alone: in a window of four periodic passes (90-120 s)
     * the two clusters send Secret GETs only, at most one per operator-issued Secret and a few per user Secret.
     */
    @Test
    void settledTlsClustersSendNothingButTheirSecretRereads(E2eEnvironment env) {
        Map<String, String> clusters = Map.of("tls-issued", "secure", "tls-byo", "own");
        clusters.forEach((ns, name) -> env.awaitReady(ns, name, 3, READY));
        var audit = new ApiServerAudit(env.kube().controlPlane().auditLog());
        Await.until(
                "a pass of both that sends nothing but Secret GETs",
                Duration.ofMinutes(3),
                () -> SettledPasses.requestsInOnePass(env, audit, clusters).stream()
                        .allMatch(TlsE2EIT::secretRead));
        long passes = SettledPasses.cachePasses(env, "etcdcluster");
        List<ApiServerAudit.Request> sent = SettledPasses.requestsInPasses(env, audit, clusters, 4);
        assertThat(sent)
                .as("the operator's requests for two settled TLS clusters")
                .allMatch(TlsE2EIT::secretRead);
        Map<String, Long> gets = sent.stream()
                .collect(Collectors.groupingBy(r -> r.namespace() + "/" + r.name(), Collectors.counting()));
        assertThat(gets)
                .as("GETs per Secret: the operator's own every 5 minutes, a user's every minute")
                .allSatisfy((secret, n) -> assertThat(n).isLessThanOrEqualTo(secret.startsWith("tls-issued/") ? 1 : 3));
        assertThat(gets.getOrDefault("tls-byo/own-server", 0L))
                .as("the user's server Secret, read once a minute or so")
                .isBetween(1L, 3L);
        assertThat(SettledPasses.cachePasses(env, "etcdcluster"))
                .as("passes that ran on the caches")
                .isGreaterThanOrEqualTo(passes + 8);
    }

    private static boolean secretRead(ApiServerAudit.Request r) {
        return r.resource().equals("secrets") && r.verb().equals("get");
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
                .as("mTLS put through the client Service")
                .isZero();
        assertThat(env.exec(
                        ns,
                        pod,
                        List.of(
                                "sh",
                                "-c",
                                "test \"$(etcdctl " + service + tls
                                        + " get secret-key --print-value-only)\" = tls-works")))
                .as("mTLS get through the client Service")
                .isZero();
        assertThat(env.exec(
                        ns,
                        pod,
                        List.of(
                                "sh",
                                "-c",
                                "etcdctl " + service + " --cacert=" + files[0]
                                        + " --command-timeout=5s get secret-key")))
                .as("a client without a certificate is refused")
                .isNotZero();
        assertThat(env.exec(
                        ns,
                        pod,
                        List.of(
                                "sh",
                                "-c",
                                "etcdctl --endpoints=http://" + cluster + "-client." + ns
                                        + ".svc:2379 --command-timeout=5s get secret-key")))
                .as("plain http is refused")
                .isNotZero();
        return files;
    }

    private static String tlsFlags(Path[] files) {
        return " --cacert=" + files[0] + " --cert=" + files[1] + " --key=" + files[2];
    }

    private static Secret tlsSecret(String ns, String name, CertificateAuthority ca, CertifiedKey leaf) {
        return new SecretBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .endMetadata()
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
