package io.etcdoperator.localkube.node;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A simulated node: its name (also its {@code kubernetes.io/hostname}), an optional zone
 * ({@code topology.kubernetes.io/zone}), extra labels, advertised capacity, and how often it heartbeats.
 */
public record NodeOptions(
        String name,
        Optional<String> zone,
        Map<String, String> labels,
        int cpus,
        String memory,
        int maxPods,
        Duration heartbeat) {

    public static NodeOptions named(String name) {
        return new NodeOptions(name, Optional.empty(), Map.of(), 4, "8Gi", 110, Duration.ofSeconds(5));
    }

    public NodeOptions inZone(String zone) {
        return new NodeOptions(name, Optional.of(zone), labels, cpus, memory, maxPods, heartbeat);
    }

    public NodeOptions withMaxPods(int pods) {
        return new NodeOptions(name, zone, labels, cpus, memory, pods, heartbeat);
    }

    public NodeOptions withLabels(Map<String, String> extra) {
        return new NodeOptions(name, zone, Map.copyOf(extra), cpus, memory, maxPods, heartbeat);
    }
}
