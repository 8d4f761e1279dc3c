package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.client.Config;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * config/rbac is enough and no wider than the table below: every (verb, resource) the operator's code calls is
 * allowed, chosen others are refused, and an operator running as that ServiceAccount forms and scales a TLS cluster.
 */
@ExtendWith(LocalKubernetesExtension.class)
class RbacE2EIT {

    private static final String OPERATOR_NS = "rbac-operator";
    private static final String WORK_NS = "rbac-work";
    private static final String ACCOUNT = "etcd-operator";
    private static final String ETCD = "etcd-operator.cozystack.io";
    private static final Duration STEP = Duration.ofMinutes(5);

    /** A request the operator makes; namespace "" is cluster scope (informers watching every namespace). */
    record Call(String verb, String group, String resource, String subresource, String namespace) {

        @Override
        public String toString() {
            return verb + " " + (group.isEmpty() ? "" : group + "/") + resource
                    + (subresource.isEmpty() ? "" : "/" + subresource)
                    + (namespace.isEmpty() ? " (all namespaces)" : " in " + namespace);
        }
    }

    /** What the code in operator/src/main calls, one row per resource; docs/rbac.md explains each. */
    static List<Call> needed() {
        List<Call> calls = new ArrayList<>();
        add(calls, ETCD, "etcdclusters", "", "get", "list", "watch", "patch");
        add(calls, ETCD, "etcdclusters", "status", "update");
        add(calls, ETCD, "etcdmembers", "", "get", "list", "watch", "create", "patch", "delete");
        add(calls, ETCD, "etcdmembers", "status", "update", "patch");
        add(calls, ETCD, "etcdsnapshots", "", "get", "list", "watch", "create", "patch", "delete");
        add(calls, ETCD, "etcdsnapshots", "status", "update");
        add(calls, ETCD, "etcdsnapshotschedules", "", "get", "list", "watch");
        add(calls, ETCD, "etcdsnapshotschedules", "status", "update");
        add(calls, ETCD, "etcddefrags", "", "get", "list", "watch", "create", "delete");
        add(calls, ETCD, "etcddefrags", "status", "update");
        add(calls, ETCD, "etcddefragschedules", "", "get", "list", "watch");
        add(calls, ETCD, "etcddefragschedules", "status", "update");
        for (String owner : List.of(
                "etcdclusters", "etcdmembers", "etcdsnapshots", "etcdsnapshotschedules", "etcddefragschedules")) {
            add(calls, ETCD, owner, "finalizers", "update");
        }
        add(calls, "", "pods", "", "get", "list", "watch", "create", "patch", "delete");
        add(calls, "", "persistentvolumeclaims", "", "get", "list", "watch", "create", "patch");
        calls.add(new Call("get", "", "nodes", "", ""));
        add(calls, "", "services", "", "get", "list", "watch", "create", "patch");
        add(calls, "", "secrets", "", "get", "create", "update");
        add(calls, "", "events", "", "create");
        add(calls, "policy", "poddisruptionbudgets", "", "get", "list", "watch", "create", "patch", "delete");
        add(calls, "batch", "jobs", "", "get", "list", "watch", "create", "delete");
        add(calls, "cert-manager.io", "certificates", "", "get", "create");
        for (String resource : List.of(
                "etcdclusters",
                "etcdmembers",
                "etcdsnapshots",
                "etcdsnapshotschedules",
                "etcddefrags",
                "etcddefragschedules")) {
            calls.add(new Call("list", ETCD, resource, "", ""));
            calls.add(new Call("watch", ETCD, resource, "", ""));
        }
        for (String resource : List.of("pods", "persistentvolumeclaims", "services")) {
            calls.add(new Call("list", "", resource, "", ""));
            calls.add(new Call("watch", "", resource, "", ""));
        }
        calls.add(new Call("list", "policy", "poddisruptionbudgets", "", ""));
        calls.add(new Call("watch", "policy", "poddisruptionbudgets", "", ""));
        calls.add(new Call("list", "batch", "jobs", "", ""));
        calls.add(new Call("watch", "batch", "jobs", "", ""));
        for (String verb : List.of("get", "create", "update", "patch")) {
            calls.add(new Call(verb, "coordination.k8s.io", "leases", "", OPERATOR_NS));
        }
        return calls;
    }

    /** Requests the operator never makes; each one a broader grant would be tempted to include. */
    static List<Call> refused() {
        return List.of(
                new Call("list", "", "secrets", "", WORK_NS),
                new Call("watch", "", "secrets", "", WORK_NS),
                new Call("delete", "", "secrets", "", WORK_NS),
                new Call("patch", "", "secrets", "", WORK_NS),
                new Call("create", "", "pods", "exec", WORK_NS),
                new Call("delete", "", "persistentvolumeclaims", "", WORK_NS),
                new Call("update", ETCD, "etcdclusters", "", WORK_NS),
                new Call("delete", ETCD, "etcdclusters", "", WORK_NS),
                new Call("update", ETCD, "etcddefragschedules", "", WORK_NS),
                new Call("update", "cert-manager.io", "certificates", "", WORK_NS),
                new Call("get", "coordination.k8s.io", "leases", "", WORK_NS),
                new Call("create", "", "serviceaccounts", "token", WORK_NS),
                new Call("list", "", "nodes", "", ""),
                new Call("patch", "", "nodes", "", ""),
                new Call("create", "rbac.authorization.k8s.io", "rolebindings", "", WORK_NS));
    }

    @Test
    void serviceAccountIsAllowedEveryCallTheCodeMakesAndRefusedOthers(E2eEnvironment env) throws IOException {
        installRbac(env);

        List<Call> denied = needed().stream().filter(c -> !allowed(env, c)).toList();
        List<Call> granted = refused().stream().filter(c -> allowed(env, c)).toList();

        assertThat(denied)
                .as("calls the operator makes but config/rbac does not allow")
                .isEmpty();
        assertThat(granted)
                .as("calls config/rbac allows but the operator never makes")
                .isEmpty();
        System.out.printf(
                "RBAC: %d needed calls allowed, %d others refused%n",
                needed().size(), refused().size());
    }

    @Test
    void operatorRunningAsTheServiceAccountFormsRollsAndScalesATlsCluster(E2eEnvironment env) throws Exception {
        installRbac(env);
        env.namespace(WORK_NS + "-run");
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "rbac-e2e-");
        Path kubeconfig = serviceAccountKubeconfig(env, dir.resolve("kubeconfig"));
        Path log = dir.resolve("operator.log");
        // One operator at a time: the shared one watches every namespace and would fight over the cluster.
        env.stopOperator();
        OperatorProcess operator = null;
        try {
            operator = OperatorProcess.start(
                            log,
                            Map.of("KUBECONFIG", kubeconfig.toString(), "POD_NAMESPACE", OPERATOR_NS),
                            List.of(
                                    "--metrics-bind-address",
                                    "127.0.0.1:0",
                                    "--health-probe-bind-address",
                                    "127.0.0.1:0",
                                    "--leader-elect",
                                    "--cluster-domain",
                                    "cluster.local",
                                    "--operator-image",
                                    E2eEnvironment.OPERATOR_IMAGE),
                            env.hostJvmFlags())
                    .awaitStarted(Duration.ofSeconds(90));
            String ns = WORK_NS + "-run";
            env.createCluster(
                    ns,
                    "least",
                    Map.of(
                            "replicas",
                            3,
                            "version",
                            "3.5.16",
                            "storage",
                            Map.of("size", "256Mi"),
                            "tls",
                            Map.of("operatorIssued", Map.of())));
            Duration formed = env.awaitReady(ns, "least", 3, STEP);
            Instant rollStart = Instant.now();
            env.patchSpec(ns, "least", "{\"version\":\"3.5.30\"}"); // the roller's writes under the shipped role
            Await.until("every member of least runs 3.5.30, READY=3", STEP, () -> {
                Map<String, Object> status = E2eEnvironment.status(env.cluster(ns, "least"));
                return "3.5.30".equals(status.get("version"))
                        && Integer.valueOf(3).equals(status.get("readyMembers"))
                        && env.members(ns, "least").stream()
                                .allMatch(m ->
                                        "3.5.30".equals(E2eEnvironment.status(m).get("version")));
            });
            Duration rolled = Duration.between(rollStart, Instant.now());
            env.patchSpec(ns, "least", "{\"replicas\":2}");
            Duration scaled = env.awaitReady(ns, "least", 2, STEP);
            Await.until(
                    "EtcdMembers down to 2 (finalizer removed)",
                    STEP,
                    () -> env.members(ns, "least").size() == 2);

            assertThat(env.client()
                            .leases()
                            .inNamespace(OPERATOR_NS)
                            .withName("etcd-operator-leader")
                            .get())
                    .as("leader Lease in the operator's namespace")
                    .isNotNull()
                    .satisfies(l -> assertThat(l.getSpec().getHolderIdentity()).isNotBlank());
            // other classes' namespaces may be deleted meanwhile: the API server refuses writes there with a 403 too
            String denials = operator.logText()
                    .lines()
                    .filter(l -> !l.contains("is being terminated") && !l.contains("NamespaceTerminating"))
                    .collect(Collectors.joining("\n"));
            assertThat(denials)
                    .as("operator log")
                    .doesNotContain("Forbidden")
                    .doesNotContain("forbidden")
                    .doesNotContain("code=403");
            System.out.printf(
                    "RBAC: operator as ServiceAccount %s/%s formed 3 members in %d s, rolled them to 3.5.30 in "
                            + "%d s, scaled to 2 in %d s%n",
                    OPERATOR_NS, ACCOUNT, formed.toSeconds(), rolled.toSeconds(), scaled.toSeconds());
        } finally {
            if (operator != null) {
                operator.close();
                operator.awaitExit(Duration.ofSeconds(30));
            }
            env.useDefaultOperator();
        }
    }

    private static void installRbac(E2eEnvironment env) throws IOException {
        if (env.client().namespaces().withName(OPERATOR_NS).get() != null) {
            return; // both tests share it; whichever runs first installs it
        }
        env.namespace(OPERATOR_NS);
        env.namespace(WORK_NS);
        Path rbac = ProjectCrds.directory().resolve("../../rbac").normalize();
        try (Stream<Path> files = Files.list(rbac)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml") && !f.endsWith("kustomization.yaml"))
                    .sorted()
                    .toList()) {
                String yaml = Files.readString(file).replace("etcd-operator-system", OPERATOR_NS);
                for (HasMetadata object : env.client()
                        .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
                        .items()) {
                    // the chart's release already owns the cluster-scoped etcd-operator role and binding
                    if (object instanceof ClusterRole || object instanceof ClusterRoleBinding) {
                        object.getMetadata()
                                .setName(
                                        OPERATOR_NS + "-" + object.getMetadata().getName());
                    }
                    if (object instanceof ClusterRoleBinding binding) {
                        binding.getRoleRef()
                                .setName(
                                        OPERATOR_NS + "-" + binding.getRoleRef().getName());
                    }
                    env.client().resource(object).create();
                }
            }
        }
    }

    private static boolean allowed(E2eEnvironment env, Call call) {
        SubjectAccessReview review = new SubjectAccessReviewBuilder()
                .withNewSpec()
                .withUser("system:serviceaccount:" + OPERATOR_NS + ":" + ACCOUNT)
                .withGroups("system:serviceaccounts", "system:serviceaccounts:" + OPERATOR_NS, "system:authenticated")
                .withNewResourceAttributes()
                .withVerb(call.verb())
                .withGroup(call.group())
                .withResource(call.resource())
                .withSubresource(call.subresource())
                .withNamespace(call.namespace())
                .endResourceAttributes()
                .endSpec()
                .build();
        return env.client()
                .authorization()
                .v1()
                .subjectAccessReview()
                .create(review)
                .getStatus()
                .getAllowed();
    }

    /** A kubeconfig with a TokenRequest token for the ServiceAccount; owner-readable only, its token never printed. */
    private static Path serviceAccountKubeconfig(E2eEnvironment env, Path file) throws IOException {
        String token = env.client()
                .serviceAccounts()
                .inNamespace(OPERATOR_NS)
                .withName(ACCOUNT)
                .tokenRequest(new TokenRequestBuilder()
                        .withNewSpec()
                        .withExpirationSeconds(3600L)
                        .endSpec()
                        .build())
                .getStatus()
                .getToken();
        Config admin = env.client().getConfiguration();
        String ca = admin.getCaCertData() != null
                ? admin.getCaCertData()
                : Base64.getEncoder().encodeToString(Files.readAllBytes(Path.of(admin.getCaCertFile())));
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, """
        apiVersion: v1
        kind: Config
        clusters:
        - name: local
          cluster: {server: "%s", certificate-authority-data: %s}
        users:
        - name: %s
          user: {token: %s}
        contexts:
        - name: local
          context: {cluster: local, user: %s, namespace: %s}
        current-context: local
        """.formatted(admin.getMasterUrl(), ca, ACCOUNT, token, ACCOUNT, OPERATOR_NS));
        return file;
    }

    private static void add(List<Call> calls, String group, String resource, String subresource, String... verbs) {
        for (String verb : verbs) {
            calls.add(new Call(verb, group, resource, subresource, WORK_NS));
        }
    }
}
