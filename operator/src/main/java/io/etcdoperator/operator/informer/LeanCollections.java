package io.etcdoperator.operator.informer;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Shrinks a cached Kubernetes object in place: every empty list or map of the model (fabric8 creates one for each
 * list field and each object's {@code additionalProperties}) becomes the shared immutable empty one, and every other
 * list an immutable one of its exact size. A cached Pod held 26 maps and 42 lists, most of them empty; see
 * docs/benchmarks.md. Cached objects are only read: a pass works on copies, which builders and Jackson make mutable.
 */
final class LeanCollections {

    /** The model's packages, and the base class of custom resources (it holds their metadata, spec and status). */
    private static final List<String> MODEL_PACKAGES = List.of(
            "io.fabric8.kubernetes.api.model", "io.etcdoperator.api", "io.fabric8.kubernetes.client.CustomResource");

    /** The fields worth a look, per model class: lists, maps, nested model objects and generic ones (spec, status). */
    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            return fieldsOf(type);
        }
    };

    /** Whether a class is the model's: asked for every object and list element of every cached object. */
    private static final ClassValue<Boolean> MODEL = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return !(type.isEnum() || type.isRecord() || type.isArray() || type.isPrimitive())
                    && MODEL_PACKAGES.stream().anyMatch(type.getName()::startsWith);
        }
    };

    private LeanCollections() {}

    /** Compacts {@code object} and everything of the model it holds; anything else is left as it is. */
    static void compact(Object object) {
        if (object == null || !model(object.getClass())) {
            return;
        }
        for (Field field : FIELDS.get(object.getClass())) {
            try {
                Object value = field.get(object);
                if (field.getType() == Object.class) { // a custom resource's spec and status: walked, never replaced
                    compact(value);
                    continue;
                }
                Object lean = lean(value);
                if (lean != value) {
                    field.set(object, lean);
                }
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("model field " + field + " is not accessible", e);
            }
        }
    }

    private static Object lean(Object value) {
        if (value instanceof List<?> list) {
            list.forEach(LeanCollections::compact);
            return leanList(list);
        }
        if (value instanceof Map<?, ?> map) {
            map.values().forEach(LeanCollections::compact);
            return map.isEmpty() ? Map.of() : map;
        }
        compact(value);
        return value;
    }

    /** Non-empty maps keep their order (labels, annotations); a list without nulls keeps its order immutably. */
    private static List<?> leanList(List<?> list) {
        if (list.isEmpty()) {
            return List.of();
        }
        if (list instanceof ArrayList<?> && !list.contains(null)) {
            return List.copyOf(list);
        }
        return list;
    }

    private static boolean model(Class<?> type) {
        return MODEL.get(type);
    }

    private static List<Field> fieldsOf(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = type; c != null && model(c); c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                int modifiers = f.getModifiers();
                if (!Modifier.isStatic(modifiers) && !Modifier.isFinal(modifiers) && worthALook(f.getType())) {
                    f.setAccessible(true);
                    fields.add(f);
                }
            }
        }
        return List.copyOf(fields);
    }

    private static boolean worthALook(Class<?> type) {
        return type == Object.class
                || List.class.isAssignableFrom(type)
                || Map.class.isAssignableFrom(type)
                || (!Collection.class.isAssignableFrom(type) && model(type));
    }
}
