package io.etcdoperator.e2e;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Issue 25's measure of a settled cluster: the operator's periodic passes, told by its metrics, and the requests it
 * sent for the cluster's namespace meanwhile, told by kube-apiserver's audit log. Clusters are namespace → name.
 */
final class SettledPasses {

    private SettledPasses() {}

    /** The operator's requests in the namespaces of {@code clusters} while each had {@code passes} periodic passes. */
    static List<ApiServerAudit.Request> requestsInPasses(
            E2eEnvironment env, ApiServerAudit audit, Map<String, String> clusters, int passes) {
        long before = cachePasses(env, "etcdcluster");
        List<ApiServerAudit.Request> all = requestsWhile(env, audit, clusters, passes);
        List<ApiServerAudit.Request> sent =
                all.stream().filter(r -> clusters.containsKey(r.namespace())).toList();
        System.out.printf(
                "idle %s: %d cluster passes on the caches, %d requests for these clusters (%d for other "
                        + "clusters of the shared environment)%n",
                clusters.values(), cachePasses(env, "etcdcluster") - before, sent.size(), all.size() - sent.size());
        return sent;
    }

    /** Requests the operator sent in the namespaces of {@code clusters} during one periodic pass of each. */
    static List<ApiServerAudit.Request> requestsInOnePass(
            E2eEnvironment env, ApiServerAudit audit, Map<String, String> clusters) {
        return requestsWhile(env, audit, clusters, 1).stream()
                .filter(r -> clusters.containsKey(r.namespace()))
                .toList();
    }

    /** Every request the operator sent while each of {@code clusters} had {@code passes} periodic passes. */
    private static List<ApiServerAudit.Request> requestsWhile(
            E2eEnvironment env, ApiServerAudit audit, Map<String, String> clusters, int passes) {
        long window = audit.mark();
        for (int i = 0; i < passes; i++) {
            awaitPassOfEach(env, clusters);
        }
        return audit.operatorRequestsSince(window);
    }

    static void awaitPassOfEach(E2eEnvironment env, Map<String, String> clusters) {
        Map<String, Double> before = new HashMap<>();
        clusters.forEach((ns, name) -> before.put(ns, lastPass(env, ns, name)));
        Await.until(
                "a periodic pass of each cluster",
                Duration.ofMinutes(2),
                () -> clusters.entrySet().stream()
                        .allMatch(c -> lastPass(env, c.getKey(), c.getValue()) > before.get(c.getKey())));
    }

    /** When the cluster's last pass that completed started (Unix seconds), from the operator's metrics. */
    private static double lastPass(E2eEnvironment env, String namespace, String cluster) {
        return env.operator()
                .get("/metrics")
                .body()
                .lines()
                .filter(l -> l.startsWith("etcd_operator_cluster_last_reconcile_success_timestamp_seconds{")
                        && l.contains("namespace=\"" + namespace + "\"")
                        && l.contains("cluster=\"" + cluster + "\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .max()
                .orElse(0);
    }

    /** etcd_operator_cache_passes_total of one controller that ran to their end on the caches. */
    static long cachePasses(E2eEnvironment env, String controller) {
        return env.operator()
                .get("/metrics")
                .body()
                .lines()
                .filter(l -> l.startsWith("etcd_operator_cache_passes_total{")
                        && l.contains("controller=\"" + controller + "\"")
                        && l.contains("result=\"settled\""))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }
}
