package io.etcdoperator.operator.tls;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.OperatorIssuedTls;
import io.etcdoperator.operator.planner.GoDuration;
import io.etcdoperator.operator.planner.LeafRole;
import io.etcdoperator.operator.planner.ObservedCertificate;
import io.etcdoperator.pki.CertificateAuthority;
import io.etcdoperator.pki.CertifiedKey;
import io.etcdoperator.pki.LeafProfile;
import io.etcdoperator.pki.SubjectAltNames;
import io.etcdoperator.pki.TrustBundle;
import io.etcdoperator.pki.Validity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * The Secret writes of operator-issued TLS, one per planner step. Updates carry the observed resourceVersion, so a
 * concurrent change makes the write fail (409) and the pass re-plans instead of overwriting. Returns a description
 * for events: subject, expiry and fingerprint, never key material.
 */
final class IssuedTlsWriter {

    static final Duration CA_LIFETIME = Duration.ofHours(43800);
    static final Duration LEAF_LIFETIME = Duration.ofHours(2160);

    private final KubernetesClient client;

    IssuedTlsWriter(KubernetesClient client) {
        this.client = client;
    }

    static String secretName(TlsNames names, LeafRole role) {
        return switch (role) {
            case SERVER -> names.serverSecret();
            case PEER -> names.peerSecret();
            case OPERATOR_CLIENT -> names.operatorClientSecret();
        };
    }

    String createCa(EtcdCluster cluster, TlsNames names, Instant now) {
        CertificateAuthority ca = newCa(cluster, now);
        client.secrets()
                .inNamespace(names.namespace())
                .resource(TlsSecrets.ca(
                        cluster,
                        names,
                        ca.signer().certificatePem(),
                        ca.signer().privateKeyPem(),
                        TrustBundle.of(ca.certificate()).pem()))
                .create();
        return "CA " + ca.signer();
    }

    /** A new leaf from the current signer: creates the role's Secret, or replaces the one observed. */
    String issueLeaf(EtcdCluster cluster, TlsNames names, LeafRole role, IssuedTlsObserver.State state, Instant now) {
        Secret caSecret = state.caSecret().orElseThrow();
        CertificateAuthority ca = CertificateAuthority.of(CertifiedKey.fromPem(
                IssuedTlsObserver.bytes(caSecret, TlsSecrets.CERT), IssuedTlsObserver.bytes(caSecret, TlsSecrets.KEY)));
        CertifiedKey leaf = ca.issue(
                profile(role),
                commonName(names, role),
                sans(names, role),
                Validity.starting(now, leafLifetime(cluster), ObservedCertificate.BACKDATE));
        Secret secret = TlsSecrets.leaf(
                cluster,
                names,
                role,
                leaf.certificatePem(),
                leaf.privateKeyPem(),
                IssuedTlsObserver.bytes(caSecret, TlsSecrets.CA));
        Secret existing = state.leafSecrets().get(role);
        if (existing == null) {
            client.secrets().inNamespace(names.namespace()).resource(secret).create();
        } else {
            secret.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
            client.secrets().inNamespace(names.namespace()).resource(secret).update();
        }
        return role.name().toLowerCase(Locale.ROOT) + " certificate " + leaf;
    }

    String syncTrust(TlsNames names, LeafRole role, IssuedTlsObserver.State state) {
        byte[] bundle = IssuedTlsObserver.bytes(state.caSecret().orElseThrow(), TlsSecrets.CA);
        client.secrets()
                .inNamespace(names.namespace())
                .resource(TlsSecrets.withTrust(state.leafSecrets().get(role), bundle))
                .update();
        return "Secret " + secretName(names, role) + " now trusts " + TrustBundle.fromPem(bundle);
    }

    /** A new CA signs from now on; the bundle keeps the old CA(s) and adds the new one. */
    String startCaRotation(EtcdCluster cluster, TlsNames names, IssuedTlsObserver.State state, Instant now) {
        Secret existing = state.caSecret().orElseThrow();
        CertificateAuthority ca = newCa(cluster, now);
        TrustBundle bundle = TrustBundle.fromPem(IssuedTlsObserver.bytes(existing, TlsSecrets.CA))
                .plus(ca.certificate());
        Secret secret = TlsSecrets.ca(
                cluster, names, ca.signer().certificatePem(), ca.signer().privateKeyPem(), bundle.pem());
        secret.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
        client.secrets().inNamespace(names.namespace()).resource(secret).update();
        return "new CA " + ca.signer() + "; trusted: " + bundle;
    }

    String retireOldCa(TlsNames names, IssuedTlsObserver.State state) {
        Secret existing = state.caSecret().orElseThrow();
        CertifiedKey signer = CertifiedKey.fromPem(
                IssuedTlsObserver.bytes(existing, TlsSecrets.CERT), IssuedTlsObserver.bytes(existing, TlsSecrets.KEY));
        TrustBundle bundle = TrustBundle.of(signer.certificate());
        client.secrets()
                .inNamespace(names.namespace())
                .resource(TlsSecrets.withTrust(existing, bundle.pem()))
                .update();
        return "trusted: " + bundle;
    }

    private static CertificateAuthority newCa(EtcdCluster cluster, Instant now) {
        OperatorIssuedTls spec = cluster.getSpec().getTls().getOperatorIssued();
        Duration lifetime = GoDuration.parse(spec.getCaDuration(), CA_LIFETIME);
        return CertificateAuthority.create(
                cluster.getMetadata().getNamespace() + "/"
                        + cluster.getMetadata().getName(),
                Validity.starting(now, lifetime, ObservedCertificate.BACKDATE));
    }

    private static Duration leafLifetime(EtcdCluster cluster) {
        return GoDuration.parse(cluster.getSpec().getTls().getOperatorIssued().getCertificateDuration(), LEAF_LIFETIME);
    }

    private static LeafProfile profile(LeafRole role) {
        return switch (role) {
            case SERVER -> LeafProfile.SERVER;
            case PEER -> LeafProfile.PEER;
            case OPERATOR_CLIENT -> LeafProfile.OPERATOR_CLIENT;
        };
    }

    private static String commonName(TlsNames names, LeafRole role) {
        return switch (role) {
            case SERVER -> names.serverCertificate();
            case PEER -> names.peerCertificate();
            case OPERATOR_CLIENT -> names.operatorClientCertificate();
        };
    }

    private static SubjectAltNames sans(TlsNames names, LeafRole role) {
        return switch (role) {
            case SERVER -> names.dns().server();
            case PEER -> names.dns().peer();
            case OPERATOR_CLIENT -> SubjectAltNames.NONE;
        };
    }
}
