package io.etcdoperator.api.crd;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A generated CRD as plain maps, read the way the API server sees the YAML (integers as Long, as CEL needs). */
public final class CrdSchema {

    static final ObjectMapper YAML =
            new ObjectMapper(new YAMLFactory()).enable(DeserializationFeature.USE_LONG_FOR_INTS);

    private final Map<String, Object> crd;

    CrdSchema(Map<String, Object> crd) {
        this.crd = crd;
    }

    /** Loads META-INF/fabric8/{plural}.etcd-operator.cozystack.io-v1.yml, the CRD generator's output. */
    public static CrdSchema generated(String plural) {
        String resource = "META-INF/fabric8/" + plural + ".etcd-operator.cozystack.io-v1.yml";
        try (InputStream in = CrdSchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("generated CRD not on the classpath: " + resource);
            }
            return new CrdSchema(asMap(YAML.readValue(in, Map.class)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Map<String, Object> crd() {
        return crd;
    }

    public Map<String, Object> version() {
        return asMap(((List<?>) asMap(crd.get("spec")).get("versions")).getFirst());
    }

    public Map<String, Object> openApiSchema() {
        return asMap(asMap(version().get("schema")).get("openAPIV3Schema"));
    }

    /** The schema node at a dotted path of property names, e.g. "spec.storage.size". */
    public Map<String, Object> node(String path) {
        Map<String, Object> node = openApiSchema();
        for (String name : path.split("\\.")) {
            Object child = asMap(node.get("properties")).get(name);
            if (child == null) {
                throw new IllegalArgumentException("no schema property " + name + " in " + path);
            }
            node = asMap(child);
        }
        return node;
    }

    /** Every CEL rule in the schema, in document order. */
    public List<CelRule> rules() {
        List<CelRule> rules = new ArrayList<>();
        collectRules(openApiSchema(), "", rules);
        return rules;
    }

    private static void collectRules(Map<String, Object> node, String path, List<CelRule> rules) {
        for (Object entry : listOrEmpty(node.get("x-kubernetes-validations"))) {
            Map<String, Object> validation = asMap(entry);
            String reported = path + (String) validation.getOrDefault("fieldPath", "");
            rules.add(new CelRule(reported, (String) validation.get("rule"), (String) validation.get("message")));
        }
        if (node.get("properties") instanceof Map<?, ?> properties) {
            properties.forEach((name, child) -> collectRules(asMap(child), join(path, (String) name), rules));
        }
        if (node.get("items") instanceof Map<?, ?> items) {
            collectRules(asMap(items), path + "[*]", rules);
        }
        if (node.get("additionalProperties") instanceof Map<?, ?> values) {
            collectRules(asMap(values), path + "[*]", rules);
        }
    }

    static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    static List<?> listOrEmpty(Object value) {
        return value instanceof List<?> list ? list : List.of();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asMap(Object value) {
        return (Map<String, Object>) value;
    }
}
