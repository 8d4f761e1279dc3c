package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;
import java.util.Objects;

/** A running etcd cluster that the operator's members join, to take it over without downtime (docs/operations.md). */
@ValidationRule(
        value = "size(self.clientUrls) > 0 && self.clientUrls.all(u, u.startsWith('http://') || "
                + "u.startsWith('https://'))",
        message = "existing.clientUrls must list at least one http:// or https:// client URL of the running cluster")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ExistingCluster {

    @Required
    @JsonPropertyDescription("Client URLs of the running cluster's members, as etcdctl --endpoints takes them. The "
            + "operator dials them with the cluster's own client TLS settings (spec.tls.client) and its root "
            + "credentials (spec.auth) until one of its own members votes, and asks every member listed by etcd for "
            + "its status at the client URL the member advertises.")
    private List<String> clientUrls;

    public List<String> getClientUrls() {
        return clientUrls;
    }

    public void setClientUrls(List<String> clientUrls) {
        this.clientUrls = clientUrls;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExistingCluster that && Objects.equals(clientUrls, that.clientUrls);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(clientUrls);
    }
}
