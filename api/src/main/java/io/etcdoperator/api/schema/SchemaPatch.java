package io.etcdoperator.api.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;

/**
 * Deep-merges a YAML fragment into the generated schema of the annotated class, for what the CRD generator cannot
 * express from annotations (string enums, formats, list types). The generator's own merge-patch customizer replaces
 * nested maps wholesale. Used only at build time: the annotation and this interface are not on the runtime classpath.
 */
public final class SchemaPatch implements SchemaCustomizer.Customizer {

    @Override
    public JSONSchemaProps apply(JSONSchemaProps props, String input, KubernetesSerialization serialization) {
        ObjectNode schema = serialization.convertValue(props, ObjectNode.class);
        merge(schema, serialization.unmarshal(input, ObjectNode.class));
        return serialization.convertValue(schema, JSONSchemaProps.class);
    }

    private static void merge(ObjectNode target, ObjectNode patch) {
        for (Map.Entry<String, JsonNode> entry : patch.properties()) {
            JsonNode existing = target.get(entry.getKey());
            if (existing instanceof ObjectNode existingObject && entry.getValue() instanceof ObjectNode patchObject) {
                merge(existingObject, patchObject);
            } else {
                target.set(entry.getKey(), entry.getValue());
            }
        }
    }
}
