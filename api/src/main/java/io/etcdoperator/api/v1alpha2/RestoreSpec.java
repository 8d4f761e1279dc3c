package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Objects;

/** Seeds a new cluster from a snapshot. */
@ValidationRule(
        value = "!has(self.source) || !has(self.source.s3) || "
                + "(has(self.source.s3.key) && size(self.source.s3.key) > 0)",
        message = "source.s3.key must be the exact key of the snapshot object")
@ValidationRule(
        value = "!has(self.source) || !has(self.source.pvc) || "
                + "(has(self.source.pvc.subPath) && size(self.source.pvc.subPath) > 0)",
        message = "source.pvc.subPath must be the exact path of the snapshot file")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RestoreSpec {

    @Required
    @JsonPropertyDescription("Where the snapshot to restore is read from: exactly one of s3 (with the exact object "
            + "key) or pvc (with the exact file path in subPath).")
    private SnapshotLocation source;

    public SnapshotLocation getSource() {
        return source;
    }

    public void setSource(SnapshotLocation source) {
        this.source = source;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof RestoreSpec that)) {
            return false;
        }
        return Objects.equals(source, that.source);
    }

    @Override
    public int hashCode() {
        return Objects.hash(source);
    }
}
