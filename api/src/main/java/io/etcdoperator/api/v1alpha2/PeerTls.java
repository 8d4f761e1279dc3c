package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.util.Objects;

/** Peer-plane certificates; peer TLS is always mutual. */
@ValidationRule(
        value = "has(self.secretRef) != has(self.certManager)",
        message = "set exactly one of secretRef or certManager")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PeerTls {

    @JsonPropertyDescription("Secret with the members' peer certificate in tls.crt, its key in tls.key and the CA in "
            + "ca.crt; used both to serve and to dial. Exactly one of secretRef and certManager.")
    private LocalObjectReference secretRef;

    @JsonPropertyDescription("cert-manager Issuer from which the operator requests the peer certificate. Exactly one "
            + "of secretRef and certManager.")
    private PeerCertManager certManager;

    public LocalObjectReference getSecretRef() {
        return secretRef;
    }

    public void setSecretRef(LocalObjectReference secretRef) {
        this.secretRef = secretRef;
    }

    public PeerCertManager getCertManager() {
        return certManager;
    }

    public void setCertManager(PeerCertManager certManager) {
        this.certManager = certManager;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof PeerTls that)) {
            return false;
        }
        return Objects.equals(secretRef, that.secretRef) && Objects.equals(certManager, that.certManager);
    }

    @Override
    public int hashCode() {
        return Objects.hash(secretRef, certManager);
    }
}
