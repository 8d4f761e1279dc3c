package io.etcdoperator.operator.writes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A JSON merge patch of an object known by name: one PATCH request. fabric8's {@code withName(..).patch(context,
 * String)} GETs the object first only to build the URL from it; in a forming fleet that was a GET before each write of
 * the cluster controller's to an EtcdMember (docs/benchmarks.md). A missing object fails the PATCH with 404 as the GET
 * did. The rare writes of quorum recovery and retained volumes still read first.
 */
public final class MergePatch {

    private MergePatch() {}

    /** Patches the object {@code name} of {@code empty}'s kind with {@code patch}, serialized as JSON. */
    public static <T extends HasMetadata> T of(
            KubernetesClient client, Supplier<T> empty, String namespace, String name, Map<String, ?> patch) {
        return client.resource(named(empty, namespace, name))
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        client.getKubernetesSerialization().asJson(patch));
    }

    /** As {@link #of}, on the object's status subresource. */
    public static <T extends HasMetadata> T ofStatus(
            KubernetesClient client, Supplier<T> empty, String namespace, String name, Map<String, ?> patch) {
        return client.resource(named(empty, namespace, name))
                .subresource("status")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        client.getKubernetesSerialization().asJson(patch));
    }

    private static <T extends HasMetadata> T named(Supplier<T> empty, String namespace, String name) {
        T named = empty.get();
        ObjectMeta meta = new ObjectMeta();
        meta.setNamespace(namespace);
        meta.setName(name);
        named.setMetadata(meta);
        return named;
    }
}
