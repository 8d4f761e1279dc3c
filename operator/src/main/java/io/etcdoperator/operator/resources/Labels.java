package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.AdditionalMetadata;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import java.util.LinkedHashMap;
import java.util.Map;

/** Labels the operator stamps and selects on, and the merge rule for user metadata (operator keys always win). */
public final class Labels {

    public static final String NAME = "app.kubernetes.io/name";
    public static final String INSTANCE = "app.kubernetes.io/instance";
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String COMPONENT = "app.kubernetes.io/component";
    public static final String MANAGER = "etcd-operator";

    private Labels() {}

    public static Map<String, String> cluster(String cluster) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(NAME, "etcd");
        labels.put(INSTANCE, cluster);
        labels.put(MANAGED_BY, MANAGER);
        labels.put(EtcdOperatorApi.LABEL_CLUSTER, cluster);
        return labels;
    }

    public static Map<String, String> member(String cluster, String member) {
        Map<String, String> labels = cluster(cluster);
        labels.put(COMPONENT, member);
        return labels;
    }

    /** The selector every member Pod matches (Services, /scale). */
    public static Map<String, String> selector(String cluster) {
        return Map.of(EtcdOperatorApi.LABEL_CLUSTER, cluster);
    }

    public static String selectorString(String cluster) {
        return EtcdOperatorApi.LABEL_CLUSTER + "=" + cluster;
    }

    public static Map<String, String> voters(String cluster) {
        return Map.of(EtcdOperatorApi.LABEL_CLUSTER, cluster, EtcdOperatorApi.LABEL_ROLE, EtcdOperatorApi.ROLE_VOTER);
    }

    public static Map<String, String> withUserLabels(Map<String, String> own, AdditionalMetadata extra) {
        return merge(own, extra == null ? null : extra.getLabels());
    }

    public static Map<String, String> withUserAnnotations(Map<String, String> own, AdditionalMetadata extra) {
        return merge(own, extra == null ? null : extra.getAnnotations());
    }

    /** User keys never override ours, and keys under the operator's reserved prefix are dropped. */
    static Map<String, String> merge(Map<String, String> own, Map<String, String> user) {
        Map<String, String> out = new LinkedHashMap<>(own == null ? Map.of() : own);
        if (user != null) {
            user.forEach((k, v) -> {
                if (!k.startsWith(EtcdOperatorApi.RESERVED_PREFIX)) {
                    out.putIfAbsent(k, v);
                }
            });
        }
        return out;
    }
}
