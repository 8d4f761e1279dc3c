package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Objects;

/** Where a snapshot is written to or read from: S3 or a PVC, never both. */
@ValidationRule(value = "has(self.s3) != has(self.pvc)", message = "set exactly one of s3 or pvc")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SnapshotLocation {

    @JsonPropertyDescription("An S3 bucket (any S3-compatible endpoint).")
    private S3Location s3;

    @JsonPropertyDescription("A PersistentVolumeClaim in the same namespace.")
    private PvcLocation pvc;

    @JsonPropertyDescription(
            "Client-side encryption of the snapshot (AES-256-GCM, streamed); unset stores it as etcd wrote it.")
    private SnapshotEncryption encryption;

    public S3Location getS3() {
        return s3;
    }

    public void setS3(S3Location s3) {
        this.s3 = s3;
    }

    public PvcLocation getPvc() {
        return pvc;
    }

    public void setPvc(PvcLocation pvc) {
        this.pvc = pvc;
    }

    public SnapshotEncryption getEncryption() {
        return encryption;
    }

    public void setEncryption(SnapshotEncryption encryption) {
        this.encryption = encryption;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SnapshotLocation that)) {
            return false;
        }
        return Objects.equals(s3, that.s3)
                && Objects.equals(pvc, that.pvc)
                && Objects.equals(encryption, that.encryption);
    }

    @Override
    public int hashCode() {
        return Objects.hash(s3, pvc, encryption);
    }
}
