package io.etcdoperator.localkube.scheduler;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a Pod may run, as a pure function of the Pod, the nodes and the Pods already placed: nodes that are Ready,
 * schedulable, whose taints the Pod tolerates, that match its nodeSelector and required node affinity, and that
 * break no required pod anti-affinity term. Among those, the node running the fewest Pods wins.
 */
final class SchedulingPolicy {

    /** A node name, or why none fits (as the scheduler's "0/3 nodes are available" message). */
    record Decision(Optional<String> node, String reason) {}

    /** A Pod already on a node (bound, or assumed by this scheduler). */
    record Placed(Pod pod, String node) {}

    private SchedulingPolicy() {}

    static Decision choose(Pod pod, List<Node> nodes, List<Placed> placed) {
        Map<String, Integer> rejections = new LinkedHashMap<>();
        List<Node> fitting = new ArrayList<>();
        for (Node node : nodes) {
            Optional<String> problem = problem(pod, node, nodes, placed);
            if (problem.isPresent()) {
                rejections.merge(problem.get(), 1, Integer::sum);
            } else {
                fitting.add(node);
            }
        }
        if (fitting.isEmpty()) {
            StringBuilder reason = new StringBuilder("0/" + nodes.size() + " nodes are available");
            rejections.forEach((problem, count) ->
                    reason.append(", ").append(count).append(' ').append(problem));
            return new Decision(Optional.empty(), reason.append('.').toString());
        }
        Node best = fitting.stream()
                .min(Comparator.comparingLong((Node node) -> placed.stream()
                                .filter(p -> p.node().equals(name(node)))
                                .count())
                        .thenComparing(SchedulingPolicy::name))
                .orElseThrow();
        return new Decision(Optional.of(name(best)), "");
    }

    private static Optional<String> problem(Pod pod, Node node, List<Node> nodes, List<Placed> placed) {
        if (!ready(node)) {
            return Optional.of("node(s) were not ready");
        }
        if (Boolean.TRUE.equals(node.getSpec().getUnschedulable())) {
            return Optional.of("node(s) were unschedulable");
        }
        if (!tolerates(pod, node)) {
            return Optional.of("node(s) had taints that the pod didn't tolerate");
        }
        if (!matchesSelectorAndAffinity(pod, node)) {
            return Optional.of("node(s) didn't match node selector");
        }
        if (!antiAffinitySatisfied(pod, node, nodes, placed)) {
            return Optional.of("node(s) didn't match pod anti-affinity rules");
        }
        return Optional.empty();
    }

    private static boolean ready(Node node) {
        return node.getStatus() != null
                && node.getStatus().getConditions() != null
                && node.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static boolean tolerates(Pod pod, Node node) {
        List<Toleration> tolerations = Objects.requireNonNullElse(pod.getSpec().getTolerations(), List.of());
        for (Taint taint : Objects.requireNonNullElse(node.getSpec().getTaints(), List.<Taint>of())) {
            if ("PreferNoSchedule".equals(taint.getEffect())) {
                continue;
            }
            boolean tolerated = tolerations.stream().anyMatch(toleration -> tolerates(toleration, taint));
            if (!tolerated) {
                return false;
            }
        }
        return true;
    }

    private static boolean tolerates(Toleration toleration, Taint taint) {
        if (toleration.getEffect() != null
                && !toleration.getEffect().isEmpty()
                && !toleration.getEffect().equals(taint.getEffect())) {
            return false;
        }
        if (toleration.getKey() == null || toleration.getKey().isEmpty()) {
            return "Exists".equals(toleration.getOperator());
        }
        if (!toleration.getKey().equals(taint.getKey())) {
            return false;
        }
        return "Exists".equals(toleration.getOperator())
                || Objects.equals(
                        Objects.requireNonNullElse(toleration.getValue(), ""),
                        Objects.requireNonNullElse(taint.getValue(), ""));
    }

    private static boolean matchesSelectorAndAffinity(Pod pod, Node node) {
        Map<String, String> labels =
                Objects.requireNonNullElse(node.getMetadata().getLabels(), Map.of());
        Map<String, String> selector = Objects.requireNonNullElse(pod.getSpec().getNodeSelector(), Map.of());
        if (!selector.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())))) {
            return false;
        }
        var affinity = pod.getSpec().getAffinity();
        if (affinity == null
                || affinity.getNodeAffinity() == null
                || affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
            return true;
        }
        List<NodeSelectorTerm> terms = affinity.getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms();
        return terms.stream()
                .anyMatch(term ->
                        Objects.requireNonNullElse(term.getMatchExpressions(), List.<NodeSelectorRequirement>of())
                                .stream()
                                .allMatch(r -> matches(r, labels)));
    }

    private static boolean matches(NodeSelectorRequirement requirement, Map<String, String> labels) {
        String value = labels.get(requirement.getKey());
        List<String> values = Objects.requireNonNullElse(requirement.getValues(), List.of());
        return switch (requirement.getOperator()) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            default -> false;
        };
    }

    private static boolean antiAffinitySatisfied(Pod pod, Node node, List<Node> nodes, List<Placed> placed) {
        var affinity = pod.getSpec().getAffinity();
        if (affinity == null || affinity.getPodAntiAffinity() == null) {
            return true;
        }
        List<PodAffinityTerm> terms = Objects.requireNonNullElse(
                affinity.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(), List.of());
        for (PodAffinityTerm term : terms) {
            String domain = label(node, term.getTopologyKey());
            if (domain == null) {
                continue;
            }
            List<String> namespaces =
                    term.getNamespaces() == null || term.getNamespaces().isEmpty()
                            ? List.of(pod.getMetadata().getNamespace())
                            : term.getNamespaces();
            for (Placed other : placed) {
                Pod existing = other.pod();
                if (existing.getMetadata().getUid().equals(pod.getMetadata().getUid())
                        || !namespaces.contains(existing.getMetadata().getNamespace())
                        || !selects(
                                term.getLabelSelector(), existing.getMetadata().getLabels())) {
                    continue;
                }
                Optional<Node> otherNode =
                        nodes.stream().filter(n -> name(n).equals(other.node())).findFirst();
                if (otherNode.isPresent() && domain.equals(label(otherNode.get(), term.getTopologyKey()))) {
                    return false;
                }
            }
        }
        return true;
    }

    static boolean selects(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return false;
        }
        Map<String, String> actual = Objects.requireNonNullElse(labels, Map.of());
        Map<String, String> matchLabels = Objects.requireNonNullElse(selector.getMatchLabels(), Map.of());
        if (!matchLabels.entrySet().stream().allMatch(e -> e.getValue().equals(actual.get(e.getKey())))) {
            return false;
        }
        for (LabelSelectorRequirement requirement :
                Objects.requireNonNullElse(selector.getMatchExpressions(), List.<LabelSelectorRequirement>of())) {
            String value = actual.get(requirement.getKey());
            List<String> values = Objects.requireNonNullElse(requirement.getValues(), List.of());
            boolean ok = switch (requirement.getOperator()) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> false;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static String label(Node node, String key) {
        return node.getMetadata().getLabels() == null
                ? null
                : node.getMetadata().getLabels().get(key);
    }

    private static String name(Node node) {
        return node.getMetadata().getName();
    }
}
