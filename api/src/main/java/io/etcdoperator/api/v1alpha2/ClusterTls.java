package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Objects;

/** TLS for the client (2379) and peer (2380) planes; an absent plane is plaintext. */
@ValidationRule(
        value = "!has(self.operatorIssued) || (!has(self.client) && !has(self.peer))",
        message = "operatorIssued cannot be combined with client or peer: "
                + "the operator issues the certificates of both planes itself")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterTls {

    @JsonPropertyDescription("Certificates of the client port (2379), from existing Secrets or from cert-manager. "
            + "With a client certificate for the operator, clients must present certificates too (mTLS).")
    private ClientTls client;

    @JsonPropertyDescription("Certificates of the peer port (2380), from an existing Secret or from cert-manager. "
            + "Peer TLS is always mutual.")
    private PeerTls peer;

    /** Additive: certificates issued and rotated by the operator itself; exclusive with client and peer. */
    @JsonPropertyDescription("Certificates for both ports issued, renewed and rotated by the operator from a CA it "
            + "keeps for this cluster; client mTLS and peer TLS are both on. Cannot be combined with client or peer.")
    private OperatorIssuedTls operatorIssued;

    public ClientTls getClient() {
        return client;
    }

    public void setClient(ClientTls client) {
        this.client = client;
    }

    public PeerTls getPeer() {
        return peer;
    }

    public void setPeer(PeerTls peer) {
        this.peer = peer;
    }

    public OperatorIssuedTls getOperatorIssued() {
        return operatorIssued;
    }

    public void setOperatorIssued(OperatorIssuedTls operatorIssued) {
        this.operatorIssued = operatorIssued;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ClusterTls that)) {
            return false;
        }
        return Objects.equals(client, that.client)
                && Objects.equals(peer, that.peer)
                && Objects.equals(operatorIssued, that.operatorIssued);
    }

    @Override
    public int hashCode() {
        return Objects.hash(client, peer, operatorIssued);
    }
}
