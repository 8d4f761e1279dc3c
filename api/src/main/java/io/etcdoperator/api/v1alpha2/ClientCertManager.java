package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClientCertManager {

  @Required
  private IssuerRef serverIssuerRef;

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
