package io.etcdoperator.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads an EtcdCluster's status from its untyped form. */
final class EtcdStatus {

    private EtcdStatus() {}

    static Map<String, Object> of(GenericKubernetesResource cluster) {
        return E2eEnvironment.status(cluster);
    }

    @SuppressWarnings("unchecked")
    static Optional<Map<String, Object>> condition(GenericKubernetesResource cluster, String type) {
        Object conditions = of(cluster).get("conditions");
        if (!(conditions instanceof List<?> list)) {
            return Optional.empty();
        }
        return list.stream()
                .map(c -> (Map<String, Object>) c)
                .filter(c -> type.equals(c.get("type")))
                .findFirst();
    }
}
