package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.planner.MemberMaterial;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Bring-your-own and cert-manager TLS: a Pod records the resourceVersions of the Secrets it started with, so a new
 * Secret version makes its revision stale and the roller restarts it (CertificateRenewed). Operator-issued members
 * carry certificate fingerprints instead (MemberMaterial) and are left out here.
 */
public final class TlsSecretVersions {

    public static final String ANNOTATION = EtcdOperatorApi.RESERVED_PREFIX + "tls-secrets-version";

    private TlsSecretVersions() {}

    /** The Secrets whose versions this member's Pod records; empty without TLS Secrets or with operator-issued TLS. */
    public static List<String> secrets(EtcdMember member) {
        if (MemberMaterial.fromAnnotations(member.getMetadata().getAnnotations())
                .isPresent()) {
            return List.of();
        }
        MemberTlsView tls = MemberTlsView.of(member);
        return Stream.of(tls.clientSecret(), tls.peerSecret())
                .filter(s -> s != null && !s.isEmpty())
                .distinct()
                .toList();
    }

    /** "name=resourceVersion,..." sorted by name, over the Secrets that exist; empty when none does. */
    public static Optional<String> value(Map<String, String> resourceVersions) {
        if (resourceVersions.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new TreeMap<>(resourceVersions)
                .entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(",")));
    }

    /** A copy of the member annotated with the value, which MemberPods copies onto the Pod. */
    public static EtcdMember stamped(EtcdMember member, Optional<String> value) {
        if (value.isEmpty()) {
            return member;
        }
        EtcdMember copy = new EtcdMember();
        copy.setSpec(member.getSpec());
        copy.setStatus(member.getStatus());
        copy.setMetadata(new ObjectMetaBuilder(member.getMetadata()).build());
        Map<String, String> annotations = new HashMap<>(
                Optional.ofNullable(member.getMetadata().getAnnotations()).orElse(Map.of()));
        annotations.put(ANNOTATION, value.get());
        copy.getMetadata().setAnnotations(annotations);
        return copy;
    }
}
