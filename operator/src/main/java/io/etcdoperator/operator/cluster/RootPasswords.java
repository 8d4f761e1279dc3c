package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.operator.reads.SecretReads;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.resources.Owners;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Root's password as the user wants it (spec.auth's Secret) and as etcd has it: the operator's own copy in
 * {@code <cluster>-root-applied}, key {@code password}, plus {@code next} while a change is under way. The copy is
 * what the operator dials with, so a new password in the user's Secret never locks it out (docs/auth.md).
 */
final class RootPasswords {

    static final String APPLIED = "password";
    static final String NEXT = "next";

    /** What the two Secrets hold; never printed (toString names no value). */
    record View(Optional<String> wanted, Optional<String> applied, Optional<String> next) {
        static final View NONE = new View(Optional.empty(), Optional.empty(), Optional.empty());

        @Override
        public String toString() {
            return "View[wanted=" + wanted.isPresent() + ", applied=" + applied.isPresent() + ", next="
                    + next.isPresent() + "]";
        }
    }

    private final KubernetesClient client;
    private final SecretReads secrets;

    RootPasswords(KubernetesClient client, SecretReads secrets) {
        this.client = client;
        this.secrets = secrets;
    }

    View read(EtcdCluster cluster) {
        var auth = cluster.getSpec().getAuth();
        if (auth == null || auth.getRootCredentialsSecretRef() == null) {
            return View.NONE;
        }
        Optional<Secret> copy = secret(
                cluster.getMetadata().getNamespace(),
                Names.appliedRootSecret(cluster.getMetadata().getName()));
        return new View(wanted(cluster), value(copy, APPLIED), value(copy, NEXT));
    }

    /** The password in the user's Secret (spec.auth.rootCredentialsSecretRef), if it holds a non-empty one. */
    Optional<String> wanted(EtcdCluster cluster) {
        String name = cluster.getSpec().getAuth().getRootCredentialsSecretRef().getName();
        return value(secret(cluster.getMetadata().getNamespace(), name), RootAuth.PASSWORD_KEY);
    }

    /** Writes the operator's copy (create, or update what is there): {@code next} empty removes it. */
    void write(EtcdCluster cluster, String applied, Optional<String> next) {
        String ns = cluster.getMetadata().getNamespace();
        String name = Names.appliedRootSecret(cluster.getMetadata().getName());
        Map<String, String> data = new HashMap<>();
        data.put(APPLIED, encode(applied));
        next.ifPresent(n -> data.put(NEXT, encode(n)));
        Optional<Secret> existing = secret(ns, name);
        if (existing.isPresent()) {
            Secret updated = existing.get();
            updated.setData(data);
            client.secrets().inNamespace(ns).resource(updated).update();
            return;
        }
        client.secrets()
                .inNamespace(ns)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(ns)
                        .withOwnerReferences(Owners.controller(cluster))
                        .endMetadata()
                        .withType("Opaque")
                        .withData(data)
                        .build())
                .create();
    }

    private Optional<Secret> secret(String ns, String name) {
        return secrets.get(ns, name);
    }

    private static Optional<String> value(Optional<Secret> secret, String key) {
        return secret.map(Secret::getData)
                .map(d -> d.get(key))
                .filter(v -> !v.isEmpty())
                .map(v ->
                        EtcdConnection.Credentials.password(Base64.getDecoder().decode(v)))
                .filter(p -> !p.isEmpty());
    }

    private static String encode(String password) {
        return Base64.getEncoder().encodeToString(password.getBytes(StandardCharsets.UTF_8));
    }
}
