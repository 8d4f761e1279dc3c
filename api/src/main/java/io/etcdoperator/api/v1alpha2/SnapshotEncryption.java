package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

/**
 * Client-side AES-256-GCM encryption of the stored snapshot. Saving encrypts with the entry {@code keySecretRef.key}
 * of the Secret, and that entry's name is stored in the object as its key id. Restoring mounts the whole Secret and
 * decrypts with the entry the snapshot names, so after a rotation the Secret keeps the old keys under their ids.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SnapshotEncryption {

    @JsonPropertyDescription(
            "The Secret entry holding the 32-byte AES-256 key (raw or base64); its key name is the key id stored with each snapshot. Restores read the whole Secret and use the entry the snapshot names.")
    @Required
    private SecretKeyReference keySecretRef;

    public SecretKeyReference getKeySecretRef() {
        return keySecretRef;
    }

    public void setKeySecretRef(SecretKeyReference keySecretRef) {
        this.keySecretRef = keySecretRef;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || (o instanceof SnapshotEncryption that && Objects.equals(keySecretRef, that.keySecretRef));
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(keySecretRef);
    }
}
