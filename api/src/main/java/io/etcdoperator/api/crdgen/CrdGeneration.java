package io.etcdoperator.api.crdgen;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crdv2.generator.CRDGenerator;
import io.fabric8.crdv2.generator.CRDPostProcessor;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.CustomResource;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Runs fabric8's CRD generator over the API's kinds (the build calls {@link #main}; docs/api.md). It does what the
 * Maven plugin did, plus what the generator leaves out: printer columns in the order declared on the class (the
 * generator sorts them by JSON path, so Age came first) and the descriptions of the kind, its spec and its status
 * (taken from {@link JsonClassDescription}, which the generator reads only on properties). Build time only.
 */
public final class CrdGeneration implements CRDPostProcessor {

    /** Every kind of the API, each generated into {@code <plural>.<group>-v1.yml}. */
    public static final List<Class<? extends CustomResource<?, ?>>> KINDS = EtcdOperatorApi.KINDS;

    private final Map<String, Class<?>> kindsByCrdName =
            KINDS.stream().collect(Collectors.toMap(HasMetadata::getFullResourceName, Function.identity()));

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: CrdGeneration <output directory>");
        }
        File output = Files.createDirectories(Path.of(args[0])).toFile();
        int written = new CRDGenerator()
                .customResourceClasses(
                        KINDS.stream().<Class<? extends HasMetadata>>map(c -> c).toList())
                .forCRDVersions("v1")
                .withImplicitPreserveUnknownFields(false)
                .withMinQuotes(false)
                .withPostProcessor(new CrdGeneration())
                .inOutputDir(output)
                .generate();
        if (written != KINDS.size()) {
            throw new IllegalStateException("generated " + written + " CRDs, expected " + KINDS.size());
        }
    }

    @Override
    public HasMetadata process(HasMetadata generated, String crdSpecVersion) {
        CustomResourceDefinition crd = (CustomResourceDefinition) generated;
        Class<?> kind = kindsByCrdName.get(crd.getMetadata().getName());
        if (kind == null) {
            throw new IllegalStateException(
                    "not a kind of this API: " + crd.getMetadata().getName());
        }
        for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
            orderColumnsAsDeclared(kind, version.getAdditionalPrinterColumns());
            JSONSchemaProps root = version.getSchema().getOpenAPIV3Schema();
            root.setDescription(describe(kind));
            Class<?>[] specAndStatus = typeArguments(kind);
            root.getProperties().get("spec").setDescription(describe(specAndStatus[0]));
            JSONSchemaProps status = root.getProperties().get("status");
            if (status != null) {
                status.setDescription(describe(specAndStatus[1]));
            }
        }
        return crd;
    }

    private static void orderColumnsAsDeclared(Class<?> kind, List<CustomResourceColumnDefinition> columns) {
        List<String> declared = Arrays.stream(kind.getAnnotationsByType(AdditionalPrinterColumn.class))
                .map(AdditionalPrinterColumn::name)
                .toList();
        columns.sort(Comparator.comparingInt(column -> declared.indexOf(column.getName())));
    }

    private static String describe(Class<?> type) {
        JsonClassDescription description = type.getAnnotation(JsonClassDescription.class);
        if (description == null || description.value().isBlank()) {
            throw new IllegalStateException(type.getSimpleName() + " needs a @JsonClassDescription");
        }
        return description.value();
    }

    private static Class<?>[] typeArguments(Class<?> kind) {
        ParameterizedType parent = (ParameterizedType) kind.getGenericSuperclass();
        return Arrays.stream(parent.getActualTypeArguments())
                .map(t -> (Class<?>) t)
                .toArray(Class<?>[]::new);
    }
}
