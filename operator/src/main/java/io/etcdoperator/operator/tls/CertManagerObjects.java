package io.etcdoperator.operator.tls;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.planner.OwnedObjects.CertificateShape;
import io.etcdoperator.operator.planner.OwnedObjects.Shape;
import io.etcdoperator.operator.reads.CachePass;
import io.etcdoperator.operator.reads.RecentReads;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.Owners;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Reads a cluster's cert-manager Certificates and creates one the planner asks for. They are never patched: cert-manager owns them after
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

    /** The cluster's Certificates as this pass takes them (those spec.tls asks cert-manager for). */
    public List<CertificateShape> observe(EtcdCluster cluster) {
        if (!CertManagerCertificates.usesCertManager(cluster)) {
            return List.of();
        }
        Instant now = clock.instant();
        return CertManagerCertificates.forCluster(cluster, clusterDomain).stream()
                .map(c -> c.getMetadata().getName())
                .map(name -> new CertificateShape(name, shape(cluster, name, now)))
                .toList();
    }

    private Shape shape(EtcdCluster cluster, String name, Instant now) {
        // by the cluster's uid: a cluster made again under the same name must not trust its predecessor's
        String key = cluster.getMetadata().getUid() + "/" + name;
        if (seen.fresh(key, now, n -> RECHECK).isPresent()) {
            return Shape.IN_SHAPE;
        }
        GenericKubernetesResource existing = CachePass.sending(resource(cluster, name)::get);
        if (existing == null) {
            return Shape.ABSENT;
        }
        // a predecessor's, which the garbage collector is about to take, is looked for again next pass
        if (!Owners.controlledBy(existing, cluster.getMetadata().getUid())) {
            return Shape.FOREIGN;
        }
        seen.put(key, name, now);
        return Shape.IN_SHAPE;
    }

    /** Creates one Certificate; answers its shape after the write (on 409: what the API server has). */
    public Shape create(EtcdCluster cluster, String name) {
        GenericKubernetesResource certificate = CertManagerCertificates.forCluster(cluster, clusterDomain).stream()
                .filter(c -> c.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow();
        try {
            client.genericKubernetesResources(CERTIFICATES)
                    .inNamespace(cluster.getMetadata().getNamespace())
                    .resource(certificate)
                    .create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            return shape(cluster, name, clock.instant()); // created meanwhile: it is never patched anyway
        }
        events.normal(cluster, Reason.CERTIFICATE_CREATED, "created Certificate " + name);
        seen.put(cluster.getMetadata().getUid() + "/" + name, name, clock.instant());
        return Shape.IN_SHAPE;
    }

    private Resource<GenericKubernetesResource> resource(EtcdCluster cluster, String name) {
        return client.genericKubernetesResources(CERTIFICATES)
                .inNamespace(cluster.getMetadata().getNamespace())
                .withName(name);
    }
}
