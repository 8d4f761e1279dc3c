package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.etcdoperator.api.schema.QuantityPattern;
import io.etcdoperator.api.schema.SchemaPatch;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Objects;

/** Per-member data directory: a PVC, or a tmpfs when medium is Memory. */
@SchemaCustomizer(value = SchemaPatch.class, input = """
    properties:
      medium: {enum: ["", "Memory"]}
    """)
@SchemaCustomizer(value = QuantityPattern.class, input = "size")
// Absent and "" mean the same medium; a field default of "" would say so, but Kubernetes 1.20 rejects it (docs/api.md).
@ValidationRule(
        value = "(has(self.medium) ? self.medium : '') == (has(oldSelf.medium) ? oldSelf.medium : '')",
        message = "storage.medium is immutable",
        fieldPath = ".medium")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class StorageSpec {

    public static final String MEDIUM_DISK = "";
    public static final String MEDIUM_MEMORY = "Memory";

    @Default("1Gi")
    @ValidationRule(
            value = "quantity(string(self)).compareTo(quantity(string(oldSelf))) >= 0",
            message = "storage.size cannot be decreased")
    @JsonPropertyDescription("Size of each member's volume, as a Kubernetes quantity (for example 4Gi); default 1Gi, "
            + "at least 128Mi. It can grow but never shrink: a PVC is expanded if its StorageClass allows it; with medium "
            + "Memory it is the tmpfs size limit, counted against the Pod's memory.")
    private Quantity size;

    @JsonPropertyDescription("Where members keep their data: empty or absent for a PVC, Memory for a tmpfs emptyDir "
            + "that is lost with its Pod (a lost member is replaced). Immutable.")
    private String medium;

    @JsonPropertyDescription("StorageClass of the member PVCs; absent means the namespace's default class. "
            + "Immutable: cannot be set, changed or removed after creation.")
    private String storageClassName;

    public Quantity getSize() {
        return size;
    }

    public void setSize(Quantity size) {
        this.size = size;
    }

    public String getMedium() {
        return medium;
    }

    public void setMedium(String medium) {
        this.medium = medium;
    }

    public String getStorageClassName() {
        return storageClassName;
    }

    public void setStorageClassName(String storageClassName) {
        this.storageClassName = storageClassName;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof StorageSpec that)) {
            return false;
        }
        return Objects.equals(size, that.size)
                && Objects.equals(medium, that.medium)
                && Objects.equals(storageClassName, that.storageClassName);
    }

    @Override
    public int hashCode() {
        return Objects.hash(size, medium, storageClassName);
    }
}
