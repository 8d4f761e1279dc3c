package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.util.Objects;

/** etcd authentication with a single root user. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AuthSpec {

    @JsonPropertyDescription("true turns on etcd authentication once the cluster has formed; the operator creates "
            + "the root user and role from rootCredentialsSecretRef. Needs tls.client or tls.operatorIssued so the "
            + "password never crosses the network in plaintext. Once on, it stays on.")
    private Boolean enabled;

    @JsonPropertyDescription("Secret in the cluster's namespace holding the root password under the key password "
            + "(non-empty). Required when enabled is true. The operator always connects as root.")
    private LocalObjectReference rootCredentialsSecretRef;

    public Boolean getEnabled() {
        return enabled;
    }

    public void setEnabled(Boolean enabled) {
        this.enabled = enabled;
    }

    public LocalObjectReference getRootCredentialsSecretRef() {
        return rootCredentialsSecretRef;
    }

    public void setRootCredentialsSecretRef(LocalObjectReference rootCredentialsSecretRef) {
        this.rootCredentialsSecretRef = rootCredentialsSecretRef;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof AuthSpec that)) {
            return false;
        }
        return Objects.equals(enabled, that.enabled)
                && Objects.equals(rootCredentialsSecretRef, that.rootCredentialsSecretRef);
    }

    @Override
    public int hashCode() {
        return Objects.hash(enabled, rootCredentialsSecretRef);
    }
}
