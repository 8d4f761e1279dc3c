package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.util.Objects;

/** Client-plane certificates, either from existing Secrets or issued by cert-manager. */
@ValidationRule(
        value = "has(self.serverSecretRef) != has(self.certManager)",
        message = "set exactly one of serverSecretRef or certManager")
@ValidationRule(
        value = "!(has(self.operatorClientSecretRef) && has(self.certManager))",
        message =
                "operatorClientSecretRef cannot be combined with certManager; use certManager.operatorClientIssuerRef")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClientTls {

    @JsonPropertyDescription("Secret with the members' server certificate for port 2379 in tls.crt, its key in "
            + "tls.key and the CA in ca.crt. Exactly one of serverSecretRef and certManager.")
    private LocalObjectReference serverSecretRef;

    @JsonPropertyDescription(
            "Secret with the client certificate the operator (and its snapshot Jobs) present, in "
                    + "tls.crt, tls.key and ca.crt. When set, members require client certificates (mTLS). Not with certManager.")
    private LocalObjectReference operatorClientSecretRef;

    @JsonPropertyDescription("cert-manager Issuers from which the operator requests the client-plane certificates. "
            + "Exactly one of serverSecretRef and certManager.")
    private ClientCertManager certManager;

    public LocalObjectReference getServerSecretRef() {
        return serverSecretRef;
    }

    public void setServerSecretRef(LocalObjectReference serverSecretRef) {
        this.serverSecretRef = serverSecretRef;
    }

    public LocalObjectReference getOperatorClientSecretRef() {
        return operatorClientSecretRef;
    }

    public void setOperatorClientSecretRef(LocalObjectReference operatorClientSecretRef) {
        this.operatorClientSecretRef = operatorClientSecretRef;
    }

    public ClientCertManager getCertManager() {
        return certManager;
    }

    public void setCertManager(ClientCertManager certManager) {
        this.certManager = certManager;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ClientTls that)) {
            return false;
        }
        return Objects.equals(serverSecretRef, that.serverSecretRef)
                && Objects.equals(operatorClientSecretRef, that.operatorClientSecretRef)
                && Objects.equals(certManager, that.certManager);
    }

    @Override
    public int hashCode() {
        return Objects.hash(serverSecretRef, operatorClientSecretRef, certManager);
    }
}
