package io.etcdoperator.operator.tls;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.events.InstantAnnotation;
import io.etcdoperator.operator.planner.IssuedTls;
import io.etcdoperator.operator.planner.LeafRole;
import io.etcdoperator.operator.planner.MemberMaterial;
import io.etcdoperator.operator.planner.ObservedCa;
import io.etcdoperator.operator.planner.ObservedCertificate;
import io.etcdoperator.operator.planner.ObservedLeaf;
import io.etcdoperator.operator.planner.ObservedTlsMember;
import io.etcdoperator.operator.reads.KubeReads;
import io.etcdoperator.operator.reads.SecretReads;
import io.etcdoperator.pki.Fingerprint;
import io.etcdoperator.pki.Pem;
import io.etcdoperator.pki.PkiException;
import io.etcdoperator.pki.TrustBundle;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads an operator-issued cluster's CA and leaf Secrets, its EtcdMembers and their Pods; fingerprints only go to the
 * planner, the Secrets stay with the executor.
 */
public final class IssuedTlsObserver {

    /** The planner's view, plus the Secrets the executor writes from. */
    public record State(TlsNames names, IssuedTls view, Optional<Secret> caSecret, Map<LeafRole, Secret> leafSecrets) {

        /** After a stamp, which changes an EtcdMember and no Secret: nothing needs reading again. */
        public State stamped(String member, MemberMaterial material) {
            return new State(names, view.stamped(member, material), caSecret, leafSecrets);
        }
    }

    private final SecretReads secrets;
    private final String clusterDomain;

    public IssuedTlsObserver(SecretReads secrets, String clusterDomain) {
        this.secrets = secrets;
        this.clusterDomain = clusterDomain;
    }

    public static boolean applies(EtcdCluster cluster) {
        return cluster.getSpec().getTls() != null && cluster.getSpec().getTls().getOperatorIssued() != null;
    }

    /** {@code reads}: where members and their Pods are read (the caches in a cache pass). */
    public State observe(EtcdCluster cluster, KubeReads reads) {
        String ns = cluster.getMetadata().getNamespace();
        TlsNames names = new TlsNames(cluster.getMetadata().getName(), ns, clusterDomain);
        Optional<Secret> caSecret = secrets.get(ns, names.caSecret());
        Optional<ObservedCa> ca = caSecret.map(s -> ca(s));
        List<X509Certificate> authorities = caSecret.map(
                        s -> TrustBundle.fromPem(bytes(s, TlsSecrets.CA)).authorities())
                .orElse(List.of());
        Map<LeafRole, Secret> leafSecrets = new EnumMap<>(LeafRole.class);
        Map<LeafRole, ObservedLeaf> leaves = new EnumMap<>(LeafRole.class);
        for (LeafRole role : LeafRole.values()) {
            Secret secret =
                    secrets.get(ns, IssuedTlsWriter.secretName(names, role)).orElse(null);
            if (secret != null) {
                leafSecrets.put(role, secret);
                leaves.put(role, leaf(secret, authorities));
            }
        }
        List<EtcdMember> members = reads.members(ns, cluster.getMetadata().getName()).stream()
                .filter(m -> m.getMetadata().getDeletionTimestamp() == null
                        && !Boolean.TRUE.equals(m.getSpec().getDormant()))
                .toList();
        List<ObservedTlsMember> observed = new ArrayList<>();
        for (EtcdMember m : members) {
            Pod pod = reads.pod(ns, m.getMetadata().getName()).orElse(null);
            observed.add(member(m, pod));
        }
        return new State(names, new IssuedTls(ca, leaves, observed, renewalRequested(cluster)), caSecret, leafSecrets);
    }

    /** The user's "renew now" (an RFC 3339 instant); an unreadable value is named in the log and ignored. */
    static Optional<Instant> renewalRequested(EtcdCluster cluster) {
        return InstantAnnotation.read(cluster, EtcdOperatorApi.ANNOTATION_RENEW_CERTIFICATES_AT);
    }

    static ObservedTlsMember member(EtcdMember member, Pod pod) {
        String name = member.getMetadata().getName();
        Optional<MemberMaterial> stamped =
                MemberMaterial.fromAnnotations(member.getMetadata().getAnnotations());
        if (pod == null || pod.getMetadata().getDeletionTimestamp() != null) {
            return new ObservedTlsMember(name, Optional.empty(), false, stamped);
        }
        boolean ready = pod.getStatus() != null
                && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        return new ObservedTlsMember(
                name, MemberMaterial.fromAnnotations(pod.getMetadata().getAnnotations()), ready, stamped);
    }

    private static ObservedCa ca(Secret secret) {
        X509Certificate signer = certificate(secret);
        String fingerprint = Fingerprint.of(signer).sha256();
        return new ObservedCa(observed(signer, fingerprint), fingerprints(secret));
    }

    private static ObservedLeaf leaf(Secret secret, List<X509Certificate> authorities) {
        X509Certificate certificate = certificate(secret);
        String issuer = authorities.stream()
                .filter(ca -> signedBy(certificate, ca))
                .findFirst()
                .map(ca -> Fingerprint.of(ca).sha256())
                .orElse("unknown"); // an unknown issuer reads as a changed signer
        return new ObservedLeaf(observed(certificate, issuer), fingerprints(secret));
    }

    private static ObservedCertificate observed(X509Certificate certificate, String issuerFingerprint) {
        return new ObservedCertificate(
                Fingerprint.of(certificate).sha256(),
                issuerFingerprint,
                certificate.getNotBefore().toInstant(),
                certificate.getNotAfter().toInstant());
    }

    private static List<String> fingerprints(Secret secret) {
        return TrustBundle.fromPem(bytes(secret, TlsSecrets.CA)).fingerprints().stream()
                .map(Fingerprint::sha256)
                .toList();
    }

    private static boolean signedBy(X509Certificate leaf, X509Certificate ca) {
        try {
            leaf.verify(ca.getPublicKey());
            return true;
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    private static X509Certificate certificate(Secret secret) {
        try {
            return Pem.certificate(bytes(secret, TlsSecrets.CERT));
        } catch (PkiException e) {
            throw new IllegalStateException(
                    "Secret " + secret.getMetadata().getName() + " has no readable " + TlsSecrets.CERT);
        }
    }

    static byte[] bytes(Secret secret, String key) {
        String value = secret.getData() == null ? null : secret.getData().get(key);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException("Secret " + secret.getMetadata().getName() + " has no " + key);
        }
        return Base64.getDecoder().decode(value);
    }
}
