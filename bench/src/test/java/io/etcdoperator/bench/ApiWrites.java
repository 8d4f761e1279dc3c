package io.etcdoperator.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Write requests the API server counted (its apiserver_request_total metric), per resource, for the kinds the
 * operator writes. Node heartbeats and Leases (nodes, leader election) are not the operator's passes and are left out.
 */
final class ApiWrites {

    static final Set<String> OPERATOR_KINDS = Set.of(
            "etcdclusters",
            "etcdmembers",
            "etcdsnapshots",
            "etcddefrags",
            "pods",
            "services",
            "persistentvolumeclaims",
            "secrets",
            "configmaps",
            "events",
            "poddisruptionbudgets",
            "jobs",
            "certificates",
            "issuers");
    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE", "APPLY");
    private static final Pattern SAMPLE = Pattern.compile("^apiserver_request_total\\{([^}]*)} ([0-9.e+]+)$");
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    private final Map<String, Long> byKind;

    private ApiWrites(Map<String, Long> byKind) {
        this.byKind = byKind;
    }

    static ApiWrites now(KubernetesClient client) {
        return parse(client.raw(client.getMasterUrl().toString().replaceAll("/$", "") + "/metrics"));
    }

    static ApiWrites parse(String metrics) {
        Map<String, Long> byKind = new TreeMap<>();
        metrics.lines().forEach(line -> {
            Matcher sample = SAMPLE.matcher(line);
            if (!sample.matches()) {
                return;
            }
            Map<String, String> labels = new TreeMap<>();
            Matcher label = LABEL.matcher(sample.group(1));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
            String resource = labels.getOrDefault("resource", "");
            if (WRITES.contains(labels.get("verb")) && OPERATOR_KINDS.contains(resource)) {
                String kind = labels.getOrDefault("subresource", "").isEmpty()
                        ? resource
                        : resource + "/" + labels.get("subresource");
                byKind.merge(kind, (long) Double.parseDouble(sample.group(2)), Long::sum);
            }
        });
        return new ApiWrites(byKind);
    }

    /** What was written between {@code earlier} and this, per resource (only those with writes). */
    Map<String, Long> since(ApiWrites earlier) {
        Map<String, Long> delta = new TreeMap<>();
        byKind.forEach((kind, count) -> {
            long d = count - earlier.byKind.getOrDefault(kind, 0L);
            if (d != 0) {
                delta.put(kind, d);
            }
        });
        return delta;
    }

    static long total(Map<String, Long> delta) {
        return delta.values().stream().mapToLong(Long::longValue).sum();
    }
}
