package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import java.util.Objects;

/** Labels and annotations added to the objects the operator creates. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AdditionalMetadata {

    @JsonPropertyDescription("Labels added to every object the operator creates for the cluster. Keys and values "
            + "must be valid Kubernetes labels.")
    private Map<String, String> labels;

    @JsonPropertyDescription("Annotations added to every object the operator creates for the cluster.")
    private Map<String, String> annotations;

    public Map<String, String> getLabels() {
        return labels;
    }

    public void setLabels(Map<String, String> labels) {
        this.labels = labels;
    }

    public Map<String, String> getAnnotations() {
        return annotations;
    }

    public void setAnnotations(Map<String, String> annotations) {
        this.annotations = annotations;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof AdditionalMetadata that)) {
            return false;
        }
        return Objects.equals(labels, that.labels) && Objects.equals(annotations, that.annotations);
    }

    @Override
    public int hashCode() {
        return Objects.hash(labels, annotations);
    }
}
