package io.etcdoperator.operator.planner;

import io.etcdoperator.api.v1alpha2.AdditionalMetadata;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * spec.additionalMetadata lands on Pods, Services and PVCs, whose API server rejects keys and values that are not
 * Kubernetes' label and annotation syntax: a bad one would fail every create of the cluster.
 */
final class MetadataRules {

    private static final String FIELD = "spec.additionalMetadata.";
    private static final String NAME = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final String DNS_SUBDOMAIN = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
    private static final int NAME_LIMIT = 63;
    private static final int PREFIX_LIMIT = 253;
    private static final int ANNOTATIONS_LIMIT = 256 * 1024;

    private MetadataRules() {}

    static void check(AdditionalMetadata metadata, List<String> errors) {
        if (metadata == null) {
            return;
        }
        Map<String, String> labels = metadata.getLabels() == null ? Map.of() : metadata.getLabels();
        labels.forEach((key, value) -> {
            keyProblem(key).ifPresent(p -> errors.add(FIELD + "labels key '" + key + "' " + p));
            if (value != null && !labelValue(value)) {
                errors.add(FIELD + "labels['" + key + "'] value must be at most " + NAME_LIMIT
                        + " characters of letters, "
                        + "digits, '-', '_' and '.', beginning and ending with a letter or digit, got '" + value + "'");
            }
        });
        Map<String, String> annotations = metadata.getAnnotations() == null ? Map.of() : metadata.getAnnotations();
        annotations
                .keySet()
                .forEach(key ->
                        keyProblem(key).ifPresent(p -> errors.add(FIELD + "annotations key '" + key + "' " + p)));
        long size = annotations.entrySet().stream()
                .mapToLong(e -> bytes(e.getKey()) + bytes(e.getValue()))
                .sum();
        if (size > ANNOTATIONS_LIMIT) {
            errors.add(FIELD + "annotations must total at most 256KiB (keys and values), got " + size + " bytes");
        }
    }

    /** Kubernetes' qualified name: an optional DNS subdomain prefix and '/', then a name of at most 63 characters. */
    static Optional<String> keyProblem(String key) {
        String[] parts = key == null ? new String[0] : key.split("/", -1);
        if (parts.length == 0 || parts.length > 2) {
            return Optional.of("must be a name with at most one '/' prefix");
        }
        String name = parts[parts.length - 1];
        if (parts.length == 2 && (parts[0].length() > PREFIX_LIMIT || !parts[0].matches(DNS_SUBDOMAIN))) {
            return Optional.of("must have a DNS subdomain of at most " + PREFIX_LIMIT + " characters as prefix");
        }
        if (name.length() > NAME_LIMIT || !name.matches(NAME)) {
            return Optional.of("must end in a name of at most " + NAME_LIMIT + " characters of letters, digits, "
                    + "'-', '_' and '.', beginning and ending with a letter or digit");
        }
        return Optional.empty();
    }

    private static boolean labelValue(String value) {
        return value.isEmpty() || (value.length() <= NAME_LIMIT && value.matches(NAME));
    }

    private static long bytes(String text) {
        return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
    }
}
