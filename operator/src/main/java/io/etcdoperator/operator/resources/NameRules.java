package io.etcdoperator.operator.resources;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The cluster's name lends itself to Services, Pods and label values, which Kubernetes holds to DNS labels. The
 * CRD checks the length on servers with CEL; this checks both length and form on every server.
 */
public final class NameRules {

    private static final String DNS_1035_LABEL = "[a-z]([-a-z0-9]*[a-z0-9])?";

    private NameRules() {}

    public static List<String> check(String name) {
        List<String> errors = new ArrayList<>();
        if (name == null || !name.matches(DNS_1035_LABEL)) {
            errors.add("metadata.name '" + name + "' must be a DNS label (lower-case letters, digits and '-', starting "
                    + "with a letter): it names the cluster's Services");
            return errors;
        }
        for (Map.Entry<String, String> derived : Names.dnsLabelsOf(name).entrySet()) {
            if (derived.getValue().length() > Names.DNS_LABEL) {
                errors.add("metadata.name must be at most " + longest() + " characters, got " + name.length() + ": the "
                        + derived.getKey() + " name " + derived.getValue() + " would exceed Kubernetes' "
                        + Names.DNS_LABEL
                        + "-character limit");
                break;
            }
        }
        return errors;
    }

    /** The longest name whose derived names all fit. */
    public static int longest() {
        int longestSuffix = Names.dnsLabelsOf("").values().stream()
                .mapToInt(String::length)
                .max()
                .orElse(0);
        return Names.DNS_LABEL - longestSuffix;
    }
}
