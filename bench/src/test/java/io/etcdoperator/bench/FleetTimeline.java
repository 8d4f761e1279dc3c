package io.etcdoperator.bench;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Each cluster's milestones as the operator logged them ({@code <instant> [thread] LEVEL ClusterReport -
 * cluster=<name> reason=<reason> ...}, a line when a cluster's reason changes), for the fleet bench's "where the
 * time goes".
 */
final class FleetTimeline {

    private static final Pattern REPORT = Pattern.compile(
            "^(\\S+) \\[([^]]+)] \\S+ ClusterReport - cluster=(\\S+) " + "reason=(\\S+)(?: detail=(.*))?");

    private final Map<String, Map<String, List<Instant>>> reasons = new HashMap<>();
    private final Map<String, Integer> passes = new HashMap<>();
    private final Map<String, Integer> refusedAdds = new HashMap<>();
    private final Set<String> threads = new HashSet<>();

    static FleetTimeline parse(Stream<String> lines) {
        FleetTimeline timeline = new FleetTimeline();
        lines.forEach(timeline::add);
        return timeline;
    }

    private void add(String line) {
        Matcher m = REPORT.matcher(line);
        if (!m.find()) {
            return;
        }
        Instant at;
        try {
            at = Instant.parse(m.group(1));
        } catch (DateTimeParseException e) {
            return;
        }
        String cluster = m.group(3);
        threads.add(m.group(2));
        passes.merge(cluster, 1, Integer::sum);
        reasons.computeIfAbsent(cluster, c -> new HashMap<>())
                .computeIfAbsent(m.group(4), r -> new ArrayList<>())
                .add(at);
        if (m.group(5) != null && m.group(5).contains("add refused")) {
            refusedAdds.merge(cluster, 1, Integer::sum);
        }
    }

    /** When {@code reason} was logged for the {@code nth} time (from 1) for this cluster. */
    Optional<Instant> at(String cluster, String reason, int nth) {
        List<Instant> times = reasons.getOrDefault(cluster, Map.of()).getOrDefault(reason, List.of());
        return times.size() < nth ? Optional.empty() : Optional.of(times.get(nth - 1));
    }

    /** How long from one milestone to the next for this cluster, if both were logged. */
    Optional<Duration> between(String cluster, String fromReason, int fromNth, String toReason, int toNth) {
        return at(cluster, fromReason, fromNth)
                .flatMap(from -> at(cluster, toReason, toNth).map(to -> Duration.between(from, to)));
    }

    int passes(String cluster) {
        return passes.getOrDefault(cluster, 0);
    }

    int refusedAdds(String cluster) {
        return refusedAdds.getOrDefault(cluster, 0);
    }

    /** Distinct threads that logged a cluster pass: how many passes ran in parallel at most. */
    int reconcilerThreads() {
        return threads.size();
    }

    /** The p-th percentile (0..100, nearest rank) of the values; NaN when there are none. */
    static double percentile(List<Double> values, double p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }
}
