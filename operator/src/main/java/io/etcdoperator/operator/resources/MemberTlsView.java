package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.ClientTls;
import io.etcdoperator.api.v1alpha2.ClusterTls;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.MemberTls;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.util.Map;

/** The TLS facts a member needs, derived once from the cluster and copied onto the EtcdMember at creation. */
public record MemberTlsView(String clientSecret, boolean clientMtls, String peerSecret, boolean peerAutoTls) {

  public boolean clientTls() {
    return clientSecret != null;
  }

  public boolean peerTls() {
    return peerSecret != null || peerAutoTls;
  }

  public static MemberTlsView of(EtcdMember member) {
    MemberTls tls = member.getSpec().getTls();
    if (tls == null) {
      return new MemberTlsView(null, false, null, false);
    }
    return new MemberTlsView(name(tls.getClientServerSecretRef()), Boolean.TRUE.equals(tls.getClientMTLS()),
        name(tls.getPeerSecretRef()), Boolean.TRUE.equals(tls.getPeerAutoTLS()));
  }

  /** BYO Secret names, or the Secrets cert-manager (or the operator's own CA) writes. */
  public static MemberTlsView of(EtcdCluster cluster) {
    String name = cluster.getMetadata().getName();
    ClusterTls tls = cluster.getSpec().getTls();
    String clientSecret = null;
    boolean mtls = false;
    String peerSecret = null;
    if (tls != null && tls.getOperatorIssued() != null) {
      return new MemberTlsView(name + "-server-tls", true, name + "-peer-tls", false); // mTLS and peer TLS together
    }
    if (tls != null && tls.getClient() != null) {
      ClientTls client = tls.getClient();
      if (client.getCertManager() != null) {
        clientSecret = name + "-server-tls";
        mtls = client.getCertManager().getOperatorClientIssuerRef() != null;
      } else {
        clientSecret = name(client.getServerSecretRef());
        mtls = client.getOperatorClientSecretRef() != null;
      }
    }
    if (tls != null && tls.getPeer() != null) {
      peerSecret = tls.getPeer().getCertManager() != null ? name + "-peer-tls" : name(tls.getPeer().getSecretRef());
    }
    Map<String, String> annotations = cluster.getMetadata().getAnnotations();
    boolean autoTls = peerSecret == null && annotations != null
        && "true".equals(annotations.get(EtcdOperatorApi.ANNOTATION_PEER_AUTO_TLS));
    return new MemberTlsView(clientSecret, mtls, peerSecret, autoTls);
  }

  public MemberTls toMemberTls() {
    if (clientSecret == null && peerSecret == null && !peerAutoTls) {
      return null;
    }
    MemberTls tls = new MemberTls();
    if (clientSecret != null) {
      tls.setClientServerSecretRef(new LocalObjectReference(clientSecret));
      tls.setClientMTLS(clientMtls ? Boolean.TRUE : null);
    }
    if (peerSecret != null) {
      tls.setPeerSecretRef(new LocalObjectReference(peerSecret));
    }
    tls.setPeerAutoTLS(peerAutoTls ? Boolean.TRUE : null);
    return tls;
  }

  private static String name(LocalObjectReference ref) {
    return ref == null || ref.getName() == null || ref.getName().isBlank() ? null : ref.getName();
  }
}
