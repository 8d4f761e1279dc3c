package io.etcdoperator.kubectl;

import io.etcdoperator.etcd.EtcdConnection;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * The etcd user to send: from {@code -s name} or {@code -s namespace/name} (a basic-auth Secret), else from the
 * member's EtcdCluster when it has {@code spec.auth.enabled} (its {@code rootCredentialsSecretRef}). The password
 * is only ever handed to the etcd client; messages name the Secret, never its contents.
 */
final class RootCredentials {

    static final String DEFAULT_USER = "root";
    private static final String CLUSTER_LABEL = "etcd-operator.cozystack.io/cluster";
    private static final String INSTANCE_LABEL = "app.kubernetes.io/instance";

    private RootCredentials() {}

    /** namespace and name of {@code -s}: {@code name} is in the Pod's namespace. */
    static String[] secretRef(String flag, String podNamespace) {
        int slash = flag.indexOf('/');
        if (slash < 0) {
            return new String[] {podNamespace, flag};
        }
        if (slash == 0 || slash == flag.length() - 1 || flag.indexOf('/', slash + 1) >= 0) {
            throw new PluginException("--credentials-secret must be NAME or NAMESPACE/NAME, not " + flag);
        }
        return new String[] {flag.substring(0, slash), flag.substring(slash + 1)};
    }

    static Optional<EtcdConnection.Credentials> resolve(KubernetesClient kube, Pod pod, String flag) {
        String namespace = pod.getMetadata().getNamespace();
        if (flag != null) {
            String[] ref = secretRef(flag, namespace);
            return Optional.of(fromSecret(kube, ref[0], ref[1]));
        }
        return clusterSecret(kube, pod).map(name -> fromSecret(kube, namespace, name));
    }

    static EtcdConnection.Credentials of(Secret secret) {
        Map<String, String> data = Optional.ofNullable(secret.getData()).orElse(Map.of());
        String ref =
                secret.getMetadata().getNamespace() + "/" + secret.getMetadata().getName();
        String password = Optional.ofNullable(data.get("password"))
                .map(p ->
                        EtcdConnection.Credentials.password(Base64.getDecoder().decode(p)))
                .filter(p -> !p.isEmpty())
                .orElseThrow(() -> new PluginException("Secret " + ref + " has no password"));
        String user = Optional.ofNullable(data.get("username"))
                .map(u ->
                        EtcdConnection.Credentials.password(Base64.getDecoder().decode(u)))
                .filter(u -> !u.isEmpty())
                .orElse(DEFAULT_USER);
        return new EtcdConnection.Credentials(user, password);
    }

    private static EtcdConnection.Credentials fromSecret(KubernetesClient kube, String namespace, String name) {
        Secret secret;
        try {
            secret = kube.secrets().inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            throw new PluginException(
                    "cannot read Secret " + namespace + "/" + name + ": " + MemberSession.reason(e), e);
        }
        if (secret == null) {
            throw new PluginException("Secret " + namespace + "/" + name + " not found");
        }
        return of(secret);
    }

    /** The root credentials Secret named by the member's EtcdCluster; empty when auth is off or the CR is unreadable. */
    @SuppressWarnings("unchecked")
    private static Optional<String> clusterSecret(KubernetesClient kube, Pod pod) {
        String cluster = Optional.ofNullable(pod.getMetadata().getLabels())
                .map(l -> l.getOrDefault(CLUSTER_LABEL, l.get(INSTANCE_LABEL)))
                .orElse(null);
        if (cluster == null) {
            return Optional.empty();
        }
        GenericKubernetesResource resource;
        try {
            resource = kube.genericKubernetesResources("etcd-operator.cozystack.io/v1alpha2", "EtcdCluster")
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(cluster)
                    .get();
        } catch (KubernetesClientException e) {
            return Optional.empty(); // no CRD or no right to read it: -s is the way then
        }
        if (resource == null
                || !(resource.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec)
                || !(spec.get("auth") instanceof Map<?, ?> auth)
                || !Boolean.TRUE.equals(auth.get("enabled"))
                || !(auth.get("rootCredentialsSecretRef") instanceof Map<?, ?> ref)
                || !(ref.get("name") instanceof String n)) {
            return Optional.empty();
        }
        return Optional.of(n);
    }
}
