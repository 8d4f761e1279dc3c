package io.etcdoperator.localkube.node;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/** A container's environment as the kubelet builds it: envFrom, then env in order with $(VAR) expansion. */
final class ContainerEnvironment {

    private final KubernetesClient client;
    private final Pod pod;
    private final String podIp;
    private final String hostIp;

    private final Map<String, String> serviceVariables;

    ContainerEnvironment(KubernetesClient client, Pod pod, String podIp, String hostIp) {
        this(client, pod, podIp, hostIp, Map.of());
    }

    /** {@code serviceVariables} (KUBERNETES_SERVICE_HOST, ...) come first, as a kubelet's service variables do. */
    ContainerEnvironment(
            KubernetesClient client, Pod pod, String podIp, String hostIp, Map<String, String> serviceVariables) {
        this.client = client;
        this.pod = pod;
        this.podIp = podIp;
        this.hostIp = hostIp;
        this.serviceVariables = Map.copyOf(serviceVariables);
    }

    /** Throws {@link VolumeNotReady} when a referenced Secret or ConfigMap key is missing and not optional. */
    Map<String, String> resolve(Container container) {
        Map<String, String> env = new LinkedHashMap<>(new TreeMap<>(serviceVariables));
        if (container.getEnvFrom() != null) {
            container.getEnvFrom().forEach(source -> addAll(env, source));
        }
        if (container.getEnv() != null) {
            for (EnvVar variable : container.getEnv()) {
                String value = variable.getValueFrom() != null
                        ? valueOf(variable.getValueFrom(), container).orElse(null)
                        : VariableExpansion.expand(Objects.requireNonNullElse(variable.getValue(), ""), env);
                if (value != null) {
                    env.put(variable.getName(), value);
                }
            }
        }
        return env;
    }

    private void addAll(Map<String, String> env, EnvFromSource source) {
        String prefix = Objects.requireNonNullElse(source.getPrefix(), "");
        Map<String, String> values = Map.of();
        if (source.getConfigMapRef() != null) {
            values = configMap(
                    source.getConfigMapRef().getName(), source.getConfigMapRef().getOptional());
        } else if (source.getSecretRef() != null) {
            values = secret(
                    source.getSecretRef().getName(), source.getSecretRef().getOptional());
        }
        values.forEach((key, value) -> env.put(prefix + key, value));
    }

    private Optional<String> valueOf(EnvVarSource source, Container container) {
        if (source.getFieldRef() != null) {
            return Optional.of(field(source.getFieldRef().getFieldPath()));
        }
        if (source.getSecretKeyRef() != null) {
            var ref = source.getSecretKeyRef();
            return key(
                    secret(ref.getName(), ref.getOptional()),
                    ref.getKey(),
                    ref.getOptional(),
                    "secret " + ref.getName());
        }
        if (source.getConfigMapKeyRef() != null) {
            var ref = source.getConfigMapKeyRef();
            return key(
                    configMap(ref.getName(), ref.getOptional()),
                    ref.getKey(),
                    ref.getOptional(),
                    "configmap " + ref.getName());
        }
        if (source.getResourceFieldRef() != null) {
            String resource = source.getResourceFieldRef().getResource();
            var resources = container.getResources();
            Map<String, Quantity> values = resource.startsWith("limits.")
                    ? (resources == null ? null : resources.getLimits())
                    : (resources == null ? null : resources.getRequests());
            Quantity quantity = values == null ? null : values.get(resource.substring(resource.indexOf('.') + 1));
            return Optional.of(
                    quantity == null
                            ? "0"
                            : Quantity.getAmountInBytes(quantity).toBigInteger().toString());
        }
        return Optional.empty();
    }

    private static Optional<String> key(Map<String, String> values, String key, Boolean optional, String what) {
        String value = values.get(key);
        if (value == null && !Boolean.TRUE.equals(optional)) {
            throw new VolumeNotReady("couldn't find key " + key + " in " + what);
        }
        return Optional.ofNullable(value);
    }

    /** The downward API: the fields a kubelet supports in env and in downwardAPI volumes. */
    String field(String path) {
        var metadata = pod.getMetadata();
        return switch (path) {
            case "metadata.name" -> metadata.getName();
            case "metadata.namespace" -> metadata.getNamespace();
            case "metadata.uid" -> metadata.getUid();
            case "spec.nodeName" -> pod.getSpec().getNodeName();
            case "spec.serviceAccountName" ->
                Objects.requireNonNullElse(pod.getSpec().getServiceAccountName(), "");
            case "status.podIP", "status.podIPs" -> podIp;
            case "status.hostIP", "status.hostIPs" -> hostIp;
            case "metadata.labels" -> render(metadata.getLabels());
            case "metadata.annotations" -> render(metadata.getAnnotations());
            default -> subscripted(path);
        };
    }

    private String subscripted(String path) {
        int open = path.indexOf("['");
        if (open < 0 || !path.endsWith("']")) {
            throw new VolumeNotReady("unsupported fieldRef " + path);
        }
        String key = path.substring(open + 2, path.length() - 2);
        Map<String, String> values = switch (path.substring(0, open)) {
            case "metadata.labels" -> pod.getMetadata().getLabels();
            case "metadata.annotations" -> pod.getMetadata().getAnnotations();
            default -> throw new VolumeNotReady("unsupported fieldRef " + path);
        };
        return values == null ? "" : Objects.requireNonNullElse(values.get(key), "");
    }

    private static String render(Map<String, String> values) {
        StringBuilder out = new StringBuilder();
        if (values != null) {
            values.entrySet().stream()
                    .sorted(Map.Entry.comparingByKey())
                    .forEach(e -> out.append(e.getKey())
                            .append("=\"")
                            .append(e.getValue())
                            .append("\"\n"));
        }
        return out.toString();
    }

    Map<String, String> secret(String name, Boolean optional) {
        Secret secret = client.secrets()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(name)
                .get();
        if (secret == null) {
            return missing("secret", name, optional);
        }
        Map<String, String> values = new LinkedHashMap<>();
        if (secret.getData() != null) {
            secret.getData()
                    .forEach((key, value) ->
                            values.put(key, new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8)));
        }
        if (secret.getStringData() != null) {
            values.putAll(secret.getStringData());
        }
        return values;
    }

    Map<String, String> configMap(String name, Boolean optional) {
        ConfigMap configMap = client.configMaps()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(name)
                .get();
        if (configMap == null) {
            return missing("configmap", name, optional);
        }
        Map<String, String> values = new LinkedHashMap<>();
        if (configMap.getData() != null) {
            values.putAll(configMap.getData());
        }
        if (configMap.getBinaryData() != null) {
            configMap
                    .getBinaryData()
                    .forEach((key, value) -> values.put(
                            key, new String(Base64.getDecoder().decode(value), StandardCharsets.ISO_8859_1)));
        }
        return values;
    }

    private static Map<String, String> missing(String kind, String name, Boolean optional) {
        if (Boolean.TRUE.equals(optional)) {
            return Map.of();
        }
        throw new VolumeNotReady(kind + " \"" + name + "\" not found");
    }
}
