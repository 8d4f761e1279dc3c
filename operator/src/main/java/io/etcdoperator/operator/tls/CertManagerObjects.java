package io.etcdoperator.operator.tls;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.reads.CachePass;
import io.etcdoperator.operator.reads.RecentReads;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.Owners;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Creates a cluster's cert-manager Certificates once. They are never patched: cert-manager owns them after
 * creation, and spec.tls is immutable, so there is nothing to converge (and no update permission is needed). One
 * seen to exist is looked for again only after {@link #RECHECK}: a settled cluster's passes send no request for them.
 */
public final class CertManagerObjects {

    /** As the operator's own Secrets (SecretReads.REREAD): only a person deletes one, and it comes back within this. */
    public static final Duration RECHECK = Duration.ofMinutes(5);

    static final ResourceDefinitionContext CERTIFICATES = new ResourceDefinitionContext.Builder()
            .withGroup(CertManagerCertificates.ISSUER_GROUP)
            .withVersion("v1")
            .withKind(CertManagerCertificates.KIND)
            .withPlural("certificates")
            .withNamespaced(true)
            .build();

    private final KubernetesClient client;
    private final EventRecorder events;
    private final String clusterDomain;
    private final Clock clock;
    /** cluster uid/Certificate name → the cluster's own Certificate, seen to exist. */
    private final RecentReads<String> seen = new RecentReads<>(RECHECK);

    public CertManagerObjects(KubernetesClient client, EventRecorder events, String clusterDomain, Clock clock) {
        this.client = client;
        this.events = events;
        this.clusterDomain = clusterDomain;
        this.clock = clock;
    }

    public void ensure(EtcdCluster cluster) {
        Instant now = clock.instant();
        for (GenericKubernetesResource certificate : CertManagerCertificates.forCluster(cluster, clusterDomain)) {
            String namespace = cluster.getMetadata().getNamespace();
            // by the cluster's uid: a cluster made again under the same name must not trust its predecessor's
            String key = cluster.getMetadata().getUid() + "/"
                    + certificate.getMetadata().getName();
            if (seen.fresh(key, now, name -> RECHECK).isPresent()) {
                continue;
            }
            var resource = client.genericKubernetesResources(CERTIFICATES)
                    .inNamespace(namespace)
                    .withName(certificate.getMetadata().getName());
            GenericKubernetesResource existing = CachePass.sending(resource::get);
            if (existing != null) {
                // a predecessor's, which the garbage collector is about to take, is looked for again next pass
                if (Owners.controlledBy(existing, cluster.getMetadata().getUid())) {
                    seen.put(key, certificate.getMetadata().getName(), now);
                }
                continue;
            }
            try {
                client.genericKubernetesResources(CERTIFICATES)
                        .inNamespace(cluster.getMetadata().getNamespace())
                        .resource(certificate)
                        .create();
                events.normal(
                        cluster,
                        Reason.CERTIFICATE_CREATED,
                        "created Certificate " + certificate.getMetadata().getName());
                seen.put(key, certificate.getMetadata().getName(), now);
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                } // created meanwhile by an earlier pass: fine, it is never patched anyway
            }
        }
    }
}
