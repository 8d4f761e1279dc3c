package io.etcdoperator.localkube.network;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The names cluster DNS would serve, as hosts-file lines: {@code <hostname>.<subdomain>.<namespace>.svc} for Pods
 * behind a headless Service named by their subdomain, and {@code <service>.<namespace>.svc} for Services, each also
 * with the cluster domain appended. As with DNS, a Pod is published only while it is ready, unless the Service
 * publishes not-ready addresses; a ClusterIP Service resolves to its endpoint Pods since there is no kube-proxy.
 */
public final class HostsEntries {

    private HostsEntries() {}

    public record Entry(String ip, List<String> names) {
        String line() {
            return ip + "\t" + String.join(" ", names);
        }
    }

    public static List<Entry> compute(List<Pod> pods, List<Service> services, String clusterDomain) {
        List<Entry> entries = new ArrayList<>();
        // by namespace: thousands of Services times thousands of Pods (simulated fleets) would be quadratic
        Map<String, List<Pod>> podsByNamespace = pods.stream()
                .collect(Collectors.groupingBy(pod -> pod.getMetadata().getNamespace()));
        for (Service service : services) {
            if (service.getSpec() == null
                    || service.getSpec().getSelector() == null
                    || service.getSpec().getSelector().isEmpty()) {
                continue;
            }
            String namespace = service.getMetadata().getNamespace();
            String serviceName = service.getMetadata().getName() + "." + namespace + ".svc";
            boolean headless = "None".equals(service.getSpec().getClusterIP());
            for (Pod pod : podsByNamespace.getOrDefault(namespace, List.of())) {
                if (!published(pod, service)) {
                    continue;
                }
                String ip = pod.getStatus().getPodIP();
                entries.add(new Entry(ip, List.of(serviceName + "." + clusterDomain, serviceName)));
                String hostname = pod.getSpec().getHostname();
                if (headless
                        && hostname != null
                        && service.getMetadata().getName().equals(pod.getSpec().getSubdomain())) {
                    String podName = hostname + "." + serviceName;
                    entries.add(new Entry(ip, List.of(podName + "." + clusterDomain, podName)));
                }
            }
        }
        entries.sort(
                Comparator.comparing((Entry entry) -> entry.names().getFirst()).thenComparing(Entry::ip));
        return entries.stream().distinct().toList();
    }

    /** What the kubelet writes for the Pod itself: its IP with its (fully qualified) hostname. */
    public static Entry own(Pod pod, String ip, String clusterDomain) {
        String hostname = Objects.requireNonNullElse(
                pod.getSpec().getHostname(), pod.getMetadata().getName());
        String subdomain = pod.getSpec().getSubdomain();
        if (subdomain == null || subdomain.isEmpty()) {
            return new Entry(ip, List.of(hostname));
        }
        String qualified =
                hostname + "." + subdomain + "." + pod.getMetadata().getNamespace() + ".svc." + clusterDomain;
        return new Entry(ip, List.of(qualified, hostname));
    }

    public static String render(List<Entry> own, List<Entry> cluster) {
        StringBuilder text = new StringBuilder("# managed by local-kube\n127.0.0.1\tlocalhost\n");
        own.forEach(entry -> text.append(entry.line()).append('\n'));
        cluster.forEach(entry -> text.append(entry.line()).append('\n'));
        return text.toString();
    }

    private static boolean published(Pod pod, Service service) {
        if (pod.getStatus() == null
                || pod.getStatus().getPodIP() == null
                || pod.getStatus().getPodIP().isEmpty()
                || pod.getMetadata().getDeletionTimestamp() != null
                || terminal(pod)) {
            return false;
        }
        if (!selects(service.getSpec().getSelector(), pod.getMetadata().getLabels())) {
            return false;
        }
        return Boolean.TRUE.equals(service.getSpec().getPublishNotReadyAddresses()) || ready(pod);
    }

    private static boolean selects(Map<String, String> selector, Map<String, String> labels) {
        return labels != null
                && selector.entrySet().stream().allMatch(term -> term.getValue().equals(labels.get(term.getKey())));
    }

    private static boolean terminal(Pod pod) {
        String phase = pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    static boolean ready(Pod pod) {
        return pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(condition ->
                                "Ready".equals(condition.getType()) && "True".equals(condition.getStatus()));
    }
}
