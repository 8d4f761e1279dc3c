package io.etcdoperator.operator.tls;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.reason.Reason;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * Creates a cluster's cert-manager Certificates once. They are never patched: cert-manager owns them after
 * creation, and spec.tls is immutable, so there is nothing to converge (and no update permission is needed).
 */
public final class CertManagerObjects {

  static final ResourceDefinitionContext CERTIFICATES = new ResourceDefinitionContext.Builder()
      .withGroup(CertManagerCertificates.ISSUER_GROUP).withVersion("v1").withKind(CertManagerCertificates.KIND)
      .withPlural("certificates").withNamespaced(true).build();

  private final KubernetesClient client;
  private final EventRecorder events;
  private final String clusterDomain;

  public CertManagerObjects(KubernetesClient client, EventRecorder events, String clusterDomain) {
    this.client = client;
    this.events = events;
    this.clusterDomain = clusterDomain;
  }

  public void ensure(EtcdCluster cluster) {
    for (GenericKubernetesResource certificate : CertManagerCertificates.forCluster(cluster, clusterDomain)) {
      var resource = client.genericKubernetesResources(CERTIFICATES)
          .inNamespace(cluster.getMetadata().getNamespace()).withName(certificate.getMetadata().getName());
      if (resource.get() != null) {
        continue;
      }
      try {
        client.genericKubernetesResources(CERTIFICATES).inNamespace(cluster.getMetadata().getNamespace())
            .resource(certificate).create();
        events.normal(cluster, Reason.CERTIFICATE_CREATED, "created Certificate " + certificate.getMetadata().getName());
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        } // created meanwhile by an earlier pass: fine, it is never patched anyway
      }
    }
  }
}
