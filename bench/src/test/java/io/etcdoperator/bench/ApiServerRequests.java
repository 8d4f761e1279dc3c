package io.etcdoperator.bench;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * kube-apiserver's {@code apiserver_request_total} by verb and resource ("PATCH pods/status"), from its /metrics
 * text. Every client is counted (the operator, and the simulated nodes' status patches and heartbeats).
 */
record ApiServerRequests(Map<String, Long> byVerbAndResource) {

    private static final Pattern SAMPLE = Pattern.compile("^apiserver_request_total\\{([^}]*)} (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    static ApiServerRequests parse(String metrics) {
        Map<String, Long> counts = new HashMap<>();
        for (String line : metrics.split("\n")) {
            Matcher sample = SAMPLE.matcher(line.strip());
            if (!sample.matches()) {
                continue;
            }
            Map<String, String> labels = new HashMap<>();
            Matcher label = LABEL.matcher(sample.group(1));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
            String resource = labels.getOrDefault("resource", "");
            String sub = labels.getOrDefault("subresource", "");
            String key = labels.getOrDefault("verb", "?") + " " + (resource.isEmpty() ? "(non-resource)" : resource)
                    + (sub.isEmpty() ? "" : "/" + sub);
            counts.merge(key, (long) Double.parseDouble(sample.group(2)), Long::sum);
        }
        return new ApiServerRequests(Map.copyOf(counts));
    }

    /** What was counted since {@code earlier}, largest first, zero counts left out. */
    Map<String, Long> since(ApiServerRequests earlier) {
        Map<String, Long> out = new LinkedHashMap<>();
        byVerbAndResource.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - earlier.byVerbAndResource.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    long total() {
        return byVerbAndResource.values().stream().mapToLong(Long::longValue).sum();
    }
}
