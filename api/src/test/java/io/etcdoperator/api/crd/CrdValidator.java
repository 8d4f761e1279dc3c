package io.etcdoperator.api.crd;

import static io.etcdoperator.api.crd.CrdSchema.asMap;
import static io.etcdoperator.api.crd.CrdSchema.join;
import static io.etcdoperator.api.crd.CrdSchema.listOrEmpty;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Admits objects against a generated CRD as the API server would: schema defaults, structural checks, then each CEL
 * rule at its path (transition rules only on update, where the old object has a value). Records each rule's outcomes.
 * With {@code -Dcel.server=true} every case also goes to a real 1.36 API server ({@link CrossCheck}).
 */
public final class CrdValidator {

    private static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addLibraries(CelExtensions.strings())
            .addVar("self", SimpleType.DYN)
            .addVar("oldSelf", SimpleType.DYN)
            .addFunctionDeclarations(QuantityLibrary.declarations())
            .setResultType(SimpleType.BOOL)
            .build();

    private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder()
            .addLibraries(CelExtensions.strings())
            .addFunctionBindings(QuantityLibrary.bindings())
            .build();

    private static final String WRONG_TYPE = "has the wrong type";
    private static final String UNSUPPORTED = "unsupported value";
    private static final String REQUIRED = "is required";

    private final CrdSchema schema;
    private final Map<String, CelRuntime.Program> programs = new HashMap<>();
    private final Map<String, Outcomes> outcomes = new LinkedHashMap<>();

    private CrdValidator(CrdSchema schema) {
        this.schema = schema;
        for (CelRule rule : schema.rules()) {
            programs.computeIfAbsent(rule.rule(), CrdValidator::compile);
            outcomes.putIfAbsent(key(rule), new Outcomes());
        }
    }

    /** A validator for the generated CRD with this plural name, e.g. "etcdclusters". */
    public static CrdValidator forGenerated(String plural) {
        return new CrdValidator(CrdSchema.generated(plural));
    }

    public CrdSchema schema() {
        return schema;
    }

    public List<Violation> create(String yaml) {
        List<Violation> violations = admit(named(defaulted(yaml)), null);
        CrossCheck.compare(schema, null, yaml, violations);
        return violations;
    }

    public List<Violation> update(String oldYaml, String newYaml) {
        List<Violation> violations = admit(named(defaulted(newYaml)), named(defaulted(oldYaml)));
        CrossCheck.compare(schema, oldYaml, newYaml, violations);
        return violations;
    }

    /** The object as the API server would store it: parsed, with every schema default filled in. */
    public Map<String, Object> defaulted(String yaml) {
        try {
            Map<String, Object> object = asMap(CrdSchema.YAML.readValue(yaml, Map.class));
            return asMap(applyDefaults(schema.openApiSchema(), object));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("test object is not valid YAML", e);
        }
    }

    /** The API server names an object before it validates it; a test object without a name gets one, as there. */
    private static Map<String, Object> named(Map<String, Object> object) {
        Map<String, Object> metadata = new LinkedHashMap<>(asMap(object.getOrDefault("metadata", Map.of())));
        metadata.putIfAbsent("name", "c1");
        object.put("metadata", metadata);
        return object;
    }

    /** Rules (as "rule | message") that no admission so far has seen both accept and reject an object. */
    public List<String> rulesNotSeenBothWays() {
        return outcomes.entrySet().stream()
                .filter(e -> !e.getValue().accepted || !e.getValue().rejected)
                .map(e -> e.getKey() + (e.getValue().accepted ? " (never rejected)" : " (never accepted)"))
                .toList();
    }

    /**
     * Schema checks first. As the API server does (seen on 1.36), the CEL rules run only when none of them is a
     * wrong type, a missing required field or a value outside an enum; a pattern or a bound does not stop them. The
     * server then reports "some validation rules were not checked", which is not a violation of its own here.
     */
    private List<Violation> admit(Object object, Object old) {
        List<Violation> violations = new ArrayList<>();
        walk(schema.openApiSchema(), object, old, "", violations, false);
        boolean blocking = violations.stream().anyMatch(CrdValidator::blocksRules);
        if (!blocking) {
            walk(schema.openApiSchema(), object, old, "", violations, true);
        }
        return violations;
    }

    private static boolean blocksRules(Violation violation) {
        return violation.message().startsWith(WRONG_TYPE)
                || violation.message().startsWith(UNSUPPORTED)
                || violation.message().equals(REQUIRED);
    }

    private void walk(
            Map<String, Object> node, Object value, Object old, String path, List<Violation> out, boolean rules) {
        List<Violation> structure = rules ? new ArrayList<>() : out;
        if (!checkStructure(node, value, path, structure)) {
            return;
        }
        for (Object entry : rules ? listOrEmpty(node.get("x-kubernetes-validations")) : List.of()) {
            Map<String, Object> validation = asMap(entry);
            String reported = path + (String) validation.getOrDefault("fieldPath", "");
            evaluate(
                    new CelRule(reported, (String) validation.get("rule"), (String) validation.get("message")),
                    value,
                    old,
                    out);
        }
        if (value instanceof Map<?, ?> map) {
            Map<?, ?> oldMap = old instanceof Map<?, ?> m ? m : Map.of();
            if (node.get("properties") instanceof Map<?, ?> properties) {
                properties.forEach((name, child) -> {
                    if (map.containsKey(name)) {
                        walk(asMap(child), map.get(name), oldMap.get(name), join(path, (String) name), out, rules);
                    }
                });
            } else if (node.get("additionalProperties") instanceof Map<?, ?> values) {
                map.forEach((key, child) ->
                        walk(asMap(values), child, oldMap.get(key), path + "[" + key + "]", out, rules));
            }
        } else if (value instanceof List<?> list && node.get("items") instanceof Map<?, ?> items) {
            for (int i = 0; i < list.size(); i++) {
                walk(
                        asMap(items),
                        list.get(i),
                        correlatedItem(node, list.get(i), old),
                        path + "[" + i + "]",
                        out,
                        rules);
            }
        }
    }

    // Only map-type lists have an identity for their items; elsewhere the API server does not correlate old items.
    private static Object correlatedItem(Map<String, Object> node, Object item, Object old) {
        if (!"map".equals(node.get("x-kubernetes-list-type"))
                || !(old instanceof List<?> oldItems)
                || !(item instanceof Map<?, ?> itemMap)) {
            return null;
        }
        List<?> keys = listOrEmpty(node.get("x-kubernetes-list-map-keys"));
        return oldItems.stream()
                .filter(o -> o instanceof Map<?, ?> oldMap
                        && keys.stream().allMatch(k -> Objects.equals(oldMap.get(k), itemMap.get(k))))
                .findFirst()
                .orElse(null);
    }

    private void evaluate(CelRule rule, Object value, Object old, List<Violation> out) {
        if (rule.isTransition() && old == null) {
            return;
        }
        Map<String, Object> variables = new HashMap<>();
        variables.put("self", value);
        if (old != null) {
            variables.put("oldSelf", old);
        }
        Object result;
        try {
            result = programs.get(rule.rule()).eval(variables);
        } catch (CelEvaluationException e) {
            out.add(new Violation(rule.path(), "rule '" + rule.rule() + "' failed to evaluate: " + e.getMessage()));
            return;
        }
        Outcomes seen = outcomes.get(key(rule));
        if (Boolean.TRUE.equals(result)) {
            seen.accepted = true;
        } else {
            seen.rejected = true;
            out.add(new Violation(rule.path(), rule.message()));
        }
    }

    /** Returns false when the value's type is wrong, so nothing below it is checked. */
    private static boolean checkStructure(Map<String, Object> node, Object value, String path, List<Violation> out) {
        if (!hasSchemaType(node, value)) {
            out.add(new Violation(path, WRONG_TYPE + " for " + describeType(node) + ": " + value));
            return false;
        }
        if (node.get("enum") instanceof List<?> allowed && !allowed.contains(value)) {
            out.add(new Violation(path, UNSUPPORTED + " " + value + ", allowed: " + allowed));
        }
        if (value instanceof String text) {
            if (node.get("pattern") instanceof String pattern
                    && !Pattern.compile(pattern).matcher(text).find()) {
                out.add(new Violation(path, "must match " + pattern));
            }
            if (node.get("minLength") instanceof Number min && text.length() < min.longValue()) {
                out.add(new Violation(path, "must be at least " + min + " characters long"));
            }
        }
        if (value instanceof Number number) {
            if (node.get("minimum") instanceof Number min && number.doubleValue() < min.doubleValue()) {
                out.add(new Violation(path, "must be greater than or equal to " + min.longValue()));
            }
            if (node.get("maximum") instanceof Number max && number.doubleValue() > max.doubleValue()) {
                out.add(new Violation(path, "must be less than or equal to " + max.longValue()));
            }
        }
        if (value instanceof Map<?, ?> map) {
            for (Object required : listOrEmpty(node.get("required"))) {
                if (!map.containsKey(required)) {
                    out.add(new Violation(join(path, (String) required), REQUIRED));
                }
            }
        }
        return true;
    }

    private static boolean hasSchemaType(Map<String, Object> node, Object value) {
        if (Boolean.TRUE.equals(node.get("x-kubernetes-int-or-string"))) {
            return value instanceof Long || value instanceof String;
        }
        Object type = node.get("type");
        if (type == null) {
            return true;
        }
        return switch ((String) type) {
            case "object" -> value instanceof Map;
            case "array" -> value instanceof List;
            case "string" -> value instanceof String;
            case "integer" -> value instanceof Long;
            case "number" -> value instanceof Number;
            case "boolean" -> value instanceof Boolean;
            default -> throw new IllegalStateException("unknown schema type " + type);
        };
    }

    private static String describeType(Map<String, Object> node) {
        return Boolean.TRUE.equals(node.get("x-kubernetes-int-or-string"))
                ? "int-or-string"
                : (String) node.get("type");
    }

    // The API server defaults top-down, including inside values that were themselves just defaulted.
    private static Object applyDefaults(Map<String, Object> node, Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> object = asMap(map);
            if (node.get("properties") instanceof Map<?, ?> properties) {
                properties.forEach((name, child) -> {
                    Map<String, Object> childNode = asMap(child);
                    if (!object.containsKey(name) && childNode.containsKey("default")) {
                        object.put((String) name, deepCopy(childNode.get("default")));
                    }
                    if (object.containsKey(name)) {
                        object.put((String) name, applyDefaults(childNode, object.get(name)));
                    }
                });
            } else if (node.get("additionalProperties") instanceof Map<?, ?> values) {
                object.replaceAll((key, child) -> applyDefaults(asMap(values), child));
            }
        } else if (value instanceof List<?> list && node.get("items") instanceof Map<?, ?> items) {
            List<Object> copy = new ArrayList<>();
            list.forEach(item -> copy.add(applyDefaults(asMap(items), item)));
            return copy;
        }
        return value;
    }

    private static Object deepCopy(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put((String) k, deepCopy(v)));
            return copy;
        }
        if (value instanceof List<?> list) {
            return new ArrayList<>(list.stream().map(CrdValidator::deepCopy).toList());
        }
        return value;
    }

    private static CelRuntime.Program compile(String rule) {
        try {
            return RUNTIME.createProgram(COMPILER.compile(rule).getAst());
        } catch (CelValidationException | CelEvaluationException e) {
            throw new IllegalStateException("CRD rule does not compile: " + rule, e);
        }
    }

    // A rule on a shared type (StorageSpec under spec and status.observed) counts once.
    private static String key(CelRule rule) {
        return rule.rule() + " | " + rule.message();
    }

    private static final class Outcomes {
        private boolean accepted;
        private boolean rejected;
    }
}
