package io.etcdoperator.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operator's pass counters from its /metrics text: JOSDK's reconciliation executions per controller and the
 * cache passes by controller and result. A fleet's formation time is bounded by passes through one queue, so how
 * many passes it took is the number to bring down.
 */
record OperatorPasses(Map<String, Double> counters) {

    private static final Pattern SAMPLE = Pattern.compile(
            "^((?:operator_sdk_reconciliations_executions|etcd_operator_cache_passes_total)\\S*?(?:\\{[^}]*})?) (\\S+)$");

    static OperatorPasses parse(String metrics) {
        Map<String, Double> counters = new TreeMap<>();
        for (String line : metrics.split("\n")) {
            Matcher sample = SAMPLE.matcher(line.strip());
            if (sample.matches()) {
                counters.merge(sample.group(1), Double.parseDouble(sample.group(2)), Double::sum);
            }
        }
        return new OperatorPasses(Map.copyOf(counters));
    }

    /** Each counter's growth since {@code earlier}, by name; counters that did not grow are left out. */
    Map<String, Long> since(OperatorPasses earlier) {
        Map<String, Long> out = new LinkedHashMap<>();
        new TreeMap<>(counters).forEach((name, value) -> {
            long grown = Math.round(value - earlier.counters.getOrDefault(name, 0.0));
            if (grown > 0) {
                out.put(name, grown);
            }
        });
        return out;
    }
}
