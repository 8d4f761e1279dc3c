package io.etcdoperator.api.schema;

import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * Restricts the named Quantity properties (input: comma-separated names) to the Kubernetes quantity grammar, so a
 * malformed string is refused by the schema instead of failing later in quantity() or in the operator. Build time only.
 */
public final class QuantityPattern implements SchemaCustomizer.Customizer {

    public static final String QUANTITY = "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))"
            + "(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

    @Override
    public JSONSchemaProps apply(JSONSchemaProps props, String input, KubernetesSerialization serialization) {
        for (String name : input.split(",")) {
            JSONSchemaProps property = props.getProperties().get(name.strip());
            if (property == null) {
                throw new IllegalArgumentException("no property '" + name.strip() + "' to restrict to quantities");
            }
            property.setPattern(QUANTITY);
        }
        return props;
    }
}
