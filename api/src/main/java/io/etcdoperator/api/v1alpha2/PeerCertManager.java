package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("cert-manager Issuer for the peer-plane certificate.")
public class PeerCertManager {

    @Required
    @JsonPropertyDescription(
            "Issuer of the members' peer certificate (Certificate <cluster>-peer, Secret " + "<cluster>-peer-tls).")
    private IssuerRef issuerRef;

    public IssuerRef getIssuerRef() {
        return issuerRef;
    }

    public void setIssuerRef(IssuerRef issuerRef) {
        this.issuerRef = issuerRef;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof PeerCertManager that)) {
            return false;
        }
        return Objects.equals(issuerRef, that.issuerRef);
    }

    @Override
    public int hashCode() {
        return Objects.hash(issuerRef);
    }
}
