package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.util.Objects;

/** The member's view of the cluster's TLS settings. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MemberTls {

    @JsonPropertyDescription("Secret with the server certificate for the client port; absent means plaintext.")
    private LocalObjectReference clientServerSecretRef;

    @JsonProperty("clientMTLS")
    @JsonPropertyDescription(
            "true makes the member require client certificates on the client port " + "(--client-cert-auth).")
    private Boolean clientMTLS;

    @JsonPropertyDescription("Secret with the peer certificate; absent means plaintext or auto TLS on the peer port.")
    private LocalObjectReference peerSecretRef;

    @JsonProperty("peerAutoTLS")
    @JsonPropertyDescription("true makes the member use etcd's self-signed peer certificates (--peer-auto-tls) when "
            + "peerSecretRef is absent.")
    private Boolean peerAutoTLS;

    public LocalObjectReference getClientServerSecretRef() {
        return clientServerSecretRef;
    }

    public void setClientServerSecretRef(LocalObjectReference clientServerSecretRef) {
        this.clientServerSecretRef = clientServerSecretRef;
    }

    public Boolean getClientMTLS() {
        return clientMTLS;
    }

    public void setClientMTLS(Boolean clientMTLS) {
        this.clientMTLS = clientMTLS;
    }

    public LocalObjectReference getPeerSecretRef() {
        return peerSecretRef;
    }

    public void setPeerSecretRef(LocalObjectReference peerSecretRef) {
        this.peerSecretRef = peerSecretRef;
    }

    public Boolean getPeerAutoTLS() {
        return peerAutoTLS;
    }

    public void setPeerAutoTLS(Boolean peerAutoTLS) {
        this.peerAutoTLS = peerAutoTLS;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof MemberTls that)) {
            return false;
        }
        return Objects.equals(clientServerSecretRef, that.clientServerSecretRef)
                && Objects.equals(clientMTLS, that.clientMTLS)
                && Objects.equals(peerSecretRef, that.peerSecretRef)
                && Objects.equals(peerAutoTLS, that.peerAutoTLS);
    }

    @Override
    public int hashCode() {
        return Objects.hash(clientServerSecretRef, clientMTLS, peerSecretRef, peerAutoTLS);
    }
}
