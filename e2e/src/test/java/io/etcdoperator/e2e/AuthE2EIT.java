package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * spec.auth on local Kubernetes: the operator turns etcd authentication on once the cluster converged, anonymous
 * clients are refused and root is accepted, and the operator itself keeps repairing the cluster as root.
 */
@ExtendWith(LocalKubernetesExtension.class)
class AuthE2EIT {

    private static final Duration STEP = Duration.ofMinutes(5);

    @Test
    void authEnabledClusterRefusesAnonymousClientsAcceptsRootAndStaysOperable(E2eEnvironment env) {
        String ns = env.namespace("auth");
        String password = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        env.client()
                .secrets()
                .inNamespace(ns)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName("root-credentials")
                        .endMetadata()
                        .withType("kubernetes.io/basic-auth")
                        .addToStringData(Map.of("username", "root", "password", password))
                        .build())
                .create();
        env.createCluster(
                ns,
                "guarded",
                Map.of(
                        "replicas",
                        3,
                        "version",
                        "3.5.16",
                        "storage",
                        Map.of("medium", "Memory", "size", "256Mi"),
                        "tls",
                        Map.of("operatorIssued", Map.of()),
                        "auth",
                        Map.of("enabled", true, "rootCredentialsSecretRef", Map.of("name", "root-credentials"))));

        Instant started = Instant.now();
        env.awaitReady(ns, "guarded", 3, STEP);
        Await.until(
                "status.authEnabled latched",
                STEP,
                () -> Boolean.TRUE.equals(
                        EtcdStatus.of(env.cluster(ns, "guarded")).get("authEnabled")));
        System.out.printf(
                "guarded READY=3 with authentication on after %d ms%n",
                Duration.between(started, Instant.now()).toMillis());

        Etcdctl etcdctl = new Etcdctl(env, ns, "guarded");
        // right after READY the client Service's endpoints can still be settling: the first write gets a minute
        Await.until(
                "root writes",
                Duration.ofMinutes(1),
                () -> etcdctl.run("ETCDCTL_USER=root:" + password, "put auth-key root-wrote-this") == 0);
        assertThat(etcdctl.run(
                        "ETCDCTL_USER=root:" + password, "get auth-key --print-value-only | grep -qx root-wrote-this"))
                .as("root reads")
                .isZero();
        assertThat(etcdctl.run("", "get auth-key 2>&1 | grep -Eq 'user name is empty|permission denied'"))
                .as("an anonymous client (operator-client certificate, no user) is refused")
                .isZero();
        assertThat(etcdctl.run(
                        "ETCDCTL_USER=root:wrong-" + password, "get auth-key 2>&1 | grep -q 'authentication failed'"))
                .as("a wrong root password is refused")
                .isZero();

        // The operator must now dial as root: replacing a lost member takes MemberRemove and MemberAddAsLearner.
        Pod lost = env.memberPods(ns, "guarded").getFirst();
        env.client()
                .pods()
                .inNamespace(ns)
                .withName(lost.getMetadata().getName())
                .withGracePeriod(0)
                .delete();
        String lostName = lost.getMetadata().getName();
        Await.until("the lost member replaced by a new one and READY=3 again", STEP, () -> {
            var members = env.members(ns, "guarded");
            return members.size() == 3
                    && members.stream().noneMatch(m -> m.getMetadata().getName().equals(lostName))
                    && env.memberPods(ns, "guarded").size() == 3
                    && Integer.valueOf(3)
                            .equals(EtcdStatus.of(env.cluster(ns, "guarded")).get("readyMembers"));
        });
        // the client Service name may still resolve to the lost Pod for a moment; the data must come back
        Await.until(
                "root reads the key written before the repair",
                STEP,
                () -> etcdctl.run(
                                "ETCDCTL_USER=root:" + password,
                                "get auth-key --print-value-only | grep -qx root-wrote-this")
                        == 0);

        // A snapshot Job dials with the cluster's TLS and, once latched, as root.
        snapshotToPvc(env, ns);

        // A new password in the Secret: etcd takes it through its auth API; no member restarts, the operator dials on.
        Set<String> pods = podUids(env, ns);
        String rotated = "r0tated-" + password;
        setPassword(env, ns, rotated);
        Await.until(
                "etcd accepts root's new password",
                STEP,
                () -> etcdctl.run(
                                "ETCDCTL_USER=root:" + rotated,
                                "get auth-key --print-value-only | grep -qx root-wrote-this")
                        == 0);
        assertThat(etcdctl.run("ETCDCTL_USER=root:" + password, "get auth-key 2>&1 | grep -q 'authentication failed'"))
                .as("the old password is refused")
                .isZero();
        assertThat(podUids(env, ns)).as("no member restarted").isEqualTo(pods);
        assertThat(env.client().v1().events().inNamespace(ns).list().getItems().stream()
                        .map(e -> e.getReason()))
                .contains("RootPasswordChanged");

        // etcd's password changed behind the operator's back is named, and nothing changes until the Secret says it.
        String behind = "b3hind-" + password;
        assertThat(etcdctl.run(
                        "echo " + behind + " | ETCDCTL_USER=root:" + rotated, "user passwd root --interactive=false"))
                .isZero();
        AtomicReference<String> lastSeen = new AtomicReference<>("nothing");
        try {
            Await.until("Degraded=True AuthCredentialsRejected", STEP, () -> {
                var guarded = env.cluster(ns, "guarded");
                lastSeen.set(
                        EtcdStatus.condition(guarded, "Degraded") + ", " + EtcdStatus.condition(guarded, "Available"));
                return EtcdStatus.condition(guarded, "Degraded")
                        .map(c -> "AuthCredentialsRejected".equals(c.get("reason")))
                        .orElse(false);
            });
        } catch (AssertionError e) {
            // seen once in a two-fork run (2026-12-07), not when run alone: say what the cluster and the operator said
            env.operator()
                    .logText()
                    .lines()
                    .filter(l -> l.contains("cluster=guarded"))
                    .reduce((a, b) -> b)
                    .ifPresent(l -> System.out.println("last operator line for guarded: " + l));
            throw new AssertionError(e.getMessage() + "; last Degraded, Available: " + lastSeen.get(), e);
        }
        String statusJson = env.client().getKubernetesSerialization().asJson(env.cluster(ns, "guarded"));
        assertThat(statusJson)
                .as("no password in the cluster object")
                .doesNotContain(password)
                .doesNotContain(behind);

        // The operator cannot reach etcd, but every voter Pod is Ready: a leftover force-new-cluster-from forces
        // nothing.
        Map<String, String> ids = memberIds(env, ns);
        String named = ids.keySet().iterator().next();
        env.client()
                .genericKubernetesResources(E2eEnvironment.CLUSTERS)
                .inNamespace(ns)
                .withName("guarded")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"etcd-operator.cozystack.io/force-new-cluster-from\":\""
                                + named + "\"}}}");
        // the members are all Ready, so Progressing stays Reconciled; the refusal is a Warning event
        Await.until(
                "a QuorumRecoveryRefused warning naming the Ready voter Pods",
                STEP,
                () -> env.client().v1().events().inNamespace(ns).list().getItems().stream()
                        .anyMatch(e -> "QuorumRecoveryRefused".equals(e.getReason())
                                && e.getMessage() != null
                                && e.getMessage().contains("voter Pods are Ready")));
        assertThat(env.members(ns, "guarded"))
                .as("no member marked for --force-new-cluster")
                .noneMatch(m -> m.getMetadata().getAnnotations() != null
                        && m.getMetadata()
                                .getAnnotations()
                                .containsKey("etcd-operator.cozystack.io/force-new-cluster"));
        env.client()
                .genericKubernetesResources(E2eEnvironment.CLUSTERS)
                .inNamespace(ns)
                .withName("guarded")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"etcd-operator.cozystack.io/force-new-cluster-from\":null}}}");
        setPassword(env, ns, behind);
        Await.until(
                "Degraded=False once the Secret holds what etcd has",
                STEP,
                () -> EtcdStatus.condition(env.cluster(ns, "guarded"), "Degraded")
                        .map(c -> "False".equals(c.get("status")))
                        .orElse(false));
        assertThat(podUids(env, ns)).as("still no member restarted").isEqualTo(pods);
        assertThat(memberIds(env, ns)).as("the same members, the same ids").isEqualTo(ids);
        assertThat(env.operator().logText())
                .as("the operator log never holds a password")
                .doesNotContain(password)
                .doesNotContain(rotated)
                .doesNotContain(behind);
    }

    private static Map<String, String> memberIds(E2eEnvironment env, String ns) {
        Map<String, String> ids = new TreeMap<>();
        env.members(ns, "guarded")
                .forEach(m -> ids.put(
                        m.getMetadata().getName(),
                        String.valueOf(E2eEnvironment.status(m).get("memberID"))));
        return ids;
    }

    private static Set<String> podUids(E2eEnvironment env, String ns) {
        return env.memberPods(ns, "guarded").stream()
                .map(p -> p.getMetadata().getUid())
                .collect(Collectors.toSet());
    }

    private static void snapshotToPvc(E2eEnvironment env, String ns) {
        env.client()
                .persistentVolumeClaims()
                .inNamespace(ns)
                .resource(new PersistentVolumeClaimBuilder()
                        .withNewMetadata()
                        .withName("backups")
                        .endMetadata()
                        .withNewSpec()
                        .withAccessModes("ReadWriteOnce")
                        .withNewResources()
                        .addToRequests("storage", new Quantity("1Gi"))
                        .endResources()
                        .endSpec()
                        .build())
                .create();
        var snapshot = new GenericKubernetesResource();
        snapshot.setApiVersion("etcd-operator.cozystack.io/v1alpha2");
        snapshot.setKind("EtcdSnapshot");
        snapshot.setMetadata(new ObjectMetaBuilder()
                .withName("guarded-backup")
                .withNamespace(ns)
                .build());
        snapshot.setAdditionalProperty(
                "spec",
                Map.of(
                        "clusterRef",
                        Map.of("name", "guarded"),
                        "destination",
                        Map.of("pvc", Map.of("claimName", "backups", "subPath", "guarded/"))));
        var snapshots = env.client().genericKubernetesResources(SNAPSHOTS).inNamespace(ns);
        snapshots.resource(snapshot).create();
        Instant started = Instant.now();
        Await.until("EtcdSnapshot guarded-backup Complete", STEP, () -> {
            Object phase = E2eEnvironment.status(
                            snapshots.withName("guarded-backup").get())
                    .get("phase");
            assertThat(phase).as("snapshot phase").isNotEqualTo("Failed");
            return "Complete".equals(phase);
        });
        @SuppressWarnings("unchecked")
        Map<String, Object> artifact = (Map<String, Object>)
                E2eEnvironment.status(snapshots.withName("guarded-backup").get())
                        .get("artifact");
        System.out.printf(
                "snapshot of the TLS + auth cluster Complete after %d ms: %s%n",
                Duration.between(started, Instant.now()).toMillis(), artifact);
        assertThat(artifact).containsKeys("uri", "sizeBytes", "checksum");
        assertThat(((Number) artifact.get("sizeBytes")).longValue()).isPositive();
    }

    private static final ResourceDefinitionContext SNAPSHOTS = new ResourceDefinitionContext.Builder()
            .withGroup("etcd-operator.cozystack.io")
            .withVersion("v1alpha2")
            .withPlural("etcdsnapshots")
            .withKind("EtcdSnapshot")
            .withNamespaced(true)
            .build();

    private static void setPassword(E2eEnvironment env, String ns, String password) {
        env.client().secrets().inNamespace(ns).withName("root-credentials").edit(s -> {
            s.setData(Map.of("username", b64("root"), "password", b64(password)));
            s.setStringData(null);
            return s;
        });
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes());
    }

    /** etcdctl inside a member Pod, through the client Service, with the operator-client certificate (mTLS). */
    private static final class Etcdctl {
        private final E2eEnvironment env;
        private final String ns;
        private final String cluster;
        private final String tls;
        private final Path dir;
        private int runs;

        Etcdctl(E2eEnvironment env, String ns, String cluster) {
            this.env = env;
            this.ns = ns;
            this.cluster = cluster;
            try {
                this.dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "auth-e2e-");
                Secret client = env.client()
                        .secrets()
                        .inNamespace(ns)
                        .withName(cluster + "-operator-client-tls")
                        .get();
                this.tls = " --cacert=" + write(dir, "ca.crt", client) + " --cert=" + write(dir, "tls.crt", client)
                        + " --key=" + write(dir, "tls.key", client);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /**
         * Runs {@code env etcdctl <args>} via sh in the first member Pod and returns the exit code; a failure prints
         * etcdctl's output (which never echoes credentials) for the test log.
         */
        int run(String envAssignment, String args) {
            Pod pod = env.memberPods(ns, cluster).getFirst();
            Path output = dir.resolve("etcdctl-" + (++runs) + ".out");
            String command = envAssignment + " etcdctl --endpoints=https://" + cluster + "-client." + ns + ".svc:2379"
                    + " --command-timeout=15s" + tls + " " + args;
            int exit = env.exec(ns, pod, List.of("sh", "-c", "{ " + command.strip() + " ; } > " + output + " 2>&1"));
            if (exit != 0) {
                try {
                    System.out.printf(
                            "etcdctl %s -> exit %d: %s%n",
                            args, exit, Files.readString(output).strip());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return exit;
        }

        private static Path write(Path dir, String key, Secret secret) throws IOException {
            Path file = dir.resolve(key);
            Files.write(file, Base64.getDecoder().decode(secret.getData().get(key)));
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            return file;
        }
    }
}
