package io.etcdoperator.operator;

import io.javaoperatorsdk.operator.RuntimeInfo;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What /healthz answers: 503 naming the event sources (informers) JOSDK reports unhealthy, so that a kubelet restarts an
 * operator whose reconcile loop no longer hears about changes. Before the start, healthy: the initial cache sync can
 * be long, and /readyz already holds traffic back.
 */
final class Liveness {

    private Liveness() {}

    /** An HTTP status and a plain-text body. */
    record Answer(int code, String body) {}

    static Answer of(RuntimeInfo runtime) {
        if (!runtime.isStarted()) {
            return of(false, Map.of());
        }
        Map<String, List<String>> unhealthy = new TreeMap<>();
        runtime.unhealthyEventSources()
                .forEach((controller, sources) -> unhealthy.put(
                        controller, sources.keySet().stream().sorted().toList()));
        return of(true, unhealthy);
    }

    /** @param unhealthy event source names by controller; controllers without any are left out */
    static Answer of(boolean started, Map<String, List<String>> unhealthy) {
        if (!started) {
            return new Answer(200, "starting");
        }
        String names = new TreeMap<>(unhealthy)
                .entrySet().stream()
                        .flatMap(e -> e.getValue().stream().sorted().map(source -> e.getKey() + "/" + source))
                        .collect(Collectors.joining(", "));
        return names.isEmpty() ? new Answer(200, "ok") : new Answer(503, "unhealthy event sources: " + names);
    }
}
