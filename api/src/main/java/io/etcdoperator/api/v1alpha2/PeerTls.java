package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.util.Objects;

/** Peer-plane certificates; peer TLS is always mutual. */
@ValidationRule(
    value = "has(self.secretRef) != has(self.certManager)",
    message = "set exactly one of secretRef or certManager")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PeerTls {

  private LocalObjectReference secretRef;

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
    return Objects.equals(secretRef, that.secretRef)
        && Objects.equals(certManager, that.certManager);
  }

  @Override
  public int hashCode() {
    return Objects.hash(secretRef, certManager);
  }
}
