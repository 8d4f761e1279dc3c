package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** Read only when the cluster is first formed. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BootstrapSpec {

    @JsonPropertyDescription("Seeds the new cluster from a snapshot: the first member restores it, the others join. "
            + "Not allowed with storage.medium Memory.")
    private RestoreSpec restore;

    public RestoreSpec getRestore() {
        return restore;
    }

    public void setRestore(RestoreSpec restore) {
        this.restore = restore;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof BootstrapSpec that)) {
            return false;
        }
        return Objects.equals(restore, that.restore);
    }

    @Override
    public int hashCode() {
        return Objects.hash(restore);
    }
}
