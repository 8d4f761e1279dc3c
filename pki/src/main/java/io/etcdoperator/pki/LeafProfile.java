package io.etcdoperator.pki;

import java.util.List;
import org.bouncycastle.asn1.x509.KeyPurposeId;

/**
 * What a leaf is for, as extended key usages. The server certificate needs clientAuth too because etcd's gRPC
 * gateway dials its own client port with it; peer certificates are presented by both ends of a peer connection.
 */
public enum LeafProfile {
    SERVER(List.of(KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth)),
    PEER(List.of(KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth)),
    OPERATOR_CLIENT(List.of(KeyPurposeId.id_kp_clientAuth));

    private final List<KeyPurposeId> usages;

    LeafProfile(List<KeyPurposeId> usages) {
        this.usages = usages;
    }

    List<KeyPurposeId> usages() {
        return usages;
    }

    /** The dotted OIDs, as {@link java.security.cert.X509Certificate#getExtendedKeyUsage()} reports them. */
    public List<String> usageOids() {
        return usages.stream().map(KeyPurposeId::getId).toList();
    }
}
