package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Objects;

/** Read only when the cluster is first formed. */
@ValidationRule(
        value = "!has(self.restore) || !has(self.existing)",
        message = "bootstrap takes restore or existing, not both")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BootstrapSpec {

    @JsonPropertyDescription("Seeds the new cluster from a snapshot: the first member restores it, the others join. "
            + "Not allowed with storage.medium Memory.")
    private RestoreSpec restore;

    @JsonPropertyDescription("Takes over a running etcd cluster instead of forming a new one: the operator's members "
            + "join it as learners one at a time and are promoted, leadership moves to one of them, and the external "
            + "members are removed one at a time once the cluster carries the annotation "
            + "etcd-operator.cozystack.io/remove-external-members: \"true\". The cluster id and every key stay. "
            + "Not allowed with restore.")
    private ExistingCluster existing;

    public RestoreSpec getRestore() {
        return restore;
    }

    public void setRestore(RestoreSpec restore) {
        this.restore = restore;
    }

    public ExistingCluster getExisting() {
        return existing;
    }

    public void setExisting(ExistingCluster existing) {
        this.existing = existing;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof BootstrapSpec that)) {
            return false;
        }
        return Objects.equals(restore, that.restore) && Objects.equals(existing, that.existing);
    }

    @Override
    public int hashCode() {
        return Objects.hash(restore, existing);
    }
}
