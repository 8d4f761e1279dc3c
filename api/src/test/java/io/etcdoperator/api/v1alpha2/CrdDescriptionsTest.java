package io.etcdoperator.api.v1alpha2;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.etcdoperator.api.crd.CrdSchema;
import io.etcdoperator.api.crdgen.CrdGeneration;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every property of every generated CRD explains itself, so that `kubectl explain etcdcluster.spec.storage` says what a
 * field does. The inner properties of Kubernetes' own types (ResourceRequirements, Affinity, Condition,
 * LocalObjectReference...) are exempt: fabric8's model classes carry no descriptions and the generator can add none to
 * classes we do not own. The field holding such a type must still be described.
 */
class CrdDescriptionsTest {

    private static final String KUBERNETES_MODEL = "io.fabric8.kubernetes.api.model";

    @Test
    void everyPropertyHasADescription() {
        List<String> undescribed = new ArrayList<>();
        List<String> checked = new ArrayList<>();
        for (Class<? extends HasMetadata> kind : CrdGeneration.KINDS) {
            CrdSchema crd = CrdSchema.generated(HasMetadata.getPlural(kind));
            Map<?, ?> root = crd.openApiSchema();
            String name = HasMetadata.getKind(kind);
            if (isBlank(root.get("description"))) {
                undescribed.add(name);
            }
            walk(name, root, kind, undescribed, checked);
        }

        assertThat(undescribed)
                .as("properties without a description (add @JsonPropertyDescription)")
                .isEmpty();
        assertThat(checked)
                .contains(
                        "EtcdCluster.spec.storage.size",
                        "EtcdCluster.spec.resources",
                        "EtcdCluster.status.conditions",
                        "EtcdDefrag.status.members.reclaimedBytes",
                        "EtcdSnapshotSchedule.spec.destination.s3.credentialsSecretRef");
        assertThat(checked)
                .as("inner properties of Kubernetes types are not checked")
                .doesNotContain("EtcdCluster.spec.resources.limits", "EtcdCluster.status.conditions.reason");
    }

    private static void walk(
            String path, Map<?, ?> schema, Class<?> type, List<String> undescribed, List<String> checked) {
        Map<?, ?> node = schema.get("items") instanceof Map<?, ?> items ? items : schema;
        if (!(node.get("properties") instanceof Map<?, ?> properties)) {
            return;
        }
        properties.forEach((key, value) -> {
            String name = (String) key;
            String at = path + "." + name;
            Map<?, ?> property = (Map<?, ?>) value;
            checked.add(at);
            if (isBlank(property.get("description"))) {
                undescribed.add(at);
            }
            Class<?> fieldType = propertyType(type, name, at);
            if (!fieldType.getName().startsWith(KUBERNETES_MODEL)) {
                walk(at, property, fieldType, undescribed, checked);
            }
        });
    }

    /** The Java type behind a JSON property: the field's class, or the element class of a List. */
    private static Class<?> propertyType(Class<?> owner, String json, String at) {
        if (HasMetadata.class.isAssignableFrom(owner)) {
            // spec and status: the type arguments of CustomResource<Spec, Status>
            Type[] args = ((ParameterizedType) owner.getGenericSuperclass()).getActualTypeArguments();
            return (Class<?>) args["spec".equals(json) ? 0 : 1];
        }
        for (Class<?> c = owner; c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                JsonProperty renamed = field.getAnnotation(JsonProperty.class);
                String name = renamed != null && !renamed.value().isEmpty() ? renamed.value() : field.getName();
                if (name.equals(json)) {
                    if (field.getGenericType() instanceof ParameterizedType generic && List.class == field.getType()) {
                        return (Class<?>) generic.getActualTypeArguments()[0];
                    }
                    return field.getType();
                }
            }
        }
        throw new AssertionError("no Java field behind " + at + " in " + owner.getSimpleName());
    }

    private static boolean isBlank(Object description) {
        return !(description instanceof String text) || text.isBlank();
    }
}
