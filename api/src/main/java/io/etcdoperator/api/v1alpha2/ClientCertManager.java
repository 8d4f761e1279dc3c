package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("cert-manager Issuers for the client-plane certificates.")
public class ClientCertManager {

    @Required
    @JsonPropertyDescription("Issuer of the members' server certificate (Certificate <cluster>-server, Secret "
            + "<cluster>-server-tls).")
    private IssuerRef serverIssuerRef;

    @JsonPropertyDescription("Issuer of the operator's client certificate (Certificate <cluster>-operator-client). "
            + "When set, members require client certificates (mTLS).")
    private IssuerRef operatorClientIssuerRef;

    public IssuerRef getServerIssuerRef() {
        return serverIssuerRef;
    }

    public void setServerIssuerRef(IssuerRef serverIssuerRef) {
        this.serverIssuerRef = serverIssuerRef;
    }

    public IssuerRef getOperatorClientIssuerRef() {
        return operatorClientIssuerRef;
    }

    public void setOperatorClientIssuerRef(IssuerRef operatorClientIssuerRef) {
        this.operatorClientIssuerRef = operatorClientIssuerRef;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ClientCertManager that)) {
            return false;
        }
        return Objects.equals(serverIssuerRef, that.serverIssuerRef)
                && Objects.equals(operatorClientIssuerRef, that.operatorClientIssuerRef);
    }

    @Override
    public int hashCode() {
        return Objects.hash(serverIssuerRef, operatorClientIssuerRef);
    }
}
