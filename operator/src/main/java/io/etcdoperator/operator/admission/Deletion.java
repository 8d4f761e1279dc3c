package io.etcdoperator.operator.admission;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import java.util.Map;
import java.util.Optional;

/**
 * What a DELETE admission request says about itself: which resource, who asks, and the labels and annotations of
 * the object as it is stored (the request's oldObject).
 */
public record Deletion(
        String operation,
        String group,
        String resource,
        String kind,
        String namespace,
        String name,
        String username,
        Map<String, String> labels,
        Map<String, String> annotations) {

    public Deletion {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }

    static Deletion of(AdmissionRequest request) {
        Optional<ObjectMeta> meta = Optional.ofNullable(request.getOldObject())
                .filter(HasMetadata.class::isInstance)
                .map(o -> ((HasMetadata) o).getMetadata());
        return new Deletion(
                request.getOperation(),
                Optional.ofNullable(request.getResource())
                        .map(r -> r.getGroup())
                        .orElse(""),
                Optional.ofNullable(request.getResource())
                        .map(r -> r.getResource())
                        .orElse(""),
                Optional.ofNullable(request.getKind()).map(k -> k.getKind()).orElse(""),
                request.getNamespace(),
                request.getName(),
                Optional.ofNullable(request.getUserInfo())
                        .map(u -> u.getUsername())
                        .orElse(""),
                meta.map(ObjectMeta::getLabels).orElse(null),
                meta.map(ObjectMeta::getAnnotations).orElse(null));
    }
}
