package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.util.Objects;

/** A one-shot snapshot of an EtcdCluster in the same namespace. */
@ValidationRule(
        value = "has(self.clusterRef) && has(self.clusterRef.name) && size(self.clusterRef.name) != 0",
        message = "clusterRef.name must name an EtcdCluster")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("What to snapshot and where to store it.")
public class EtcdSnapshotSpec {

    @Required
    @JsonPropertyDescription("The EtcdCluster to snapshot, by name, in the same namespace.")
    private LocalObjectReference clusterRef;

    @Required
    @JsonPropertyDescription("Where the snapshot file is written: exactly one of s3 or pvc. An object another "
            + "snapshot wrote is never overwritten.")
    private SnapshotLocation destination;

    @JsonPropertyDescription("true proves the stored snapshot restores: after the save, a second agent Job fetches "
            + "(and decrypts) it, restores it into a scratch directory with etcdutl and compares its hash, revision and "
            + "key count with those recorded at save time. The result is the Verified condition. Default false.")
    private Boolean verify;

    public LocalObjectReference getClusterRef() {
        return clusterRef;
    }

    public void setClusterRef(LocalObjectReference clusterRef) {
        this.clusterRef = clusterRef;
    }

    public SnapshotLocation getDestination() {
        return destination;
    }

    public void setDestination(SnapshotLocation destination) {
        this.destination = destination;
    }

    public Boolean getVerify() {
        return verify;
    }

    public void setVerify(Boolean verify) {
        this.verify = verify;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof EtcdSnapshotSpec that)) {
            return false;
        }
        return Objects.equals(clusterRef, that.clusterRef)
                && Objects.equals(destination, that.destination)
                && Objects.equals(verify, that.verify);
    }

    @Override
    public int hashCode() {
        return Objects.hash(clusterRef, destination, verify);
    }
}
