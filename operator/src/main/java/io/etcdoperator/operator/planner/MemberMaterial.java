package io.etcdoperator.operator.planner;

import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The TLS material a member Pod was started with, as fingerprints. Stamped on the Pod as annotations when it is
 * created, so the planner can tell which members still run old certificates or an old trust bundle.
 */
public record MemberMaterial(String serverFingerprint, String peerFingerprint, List<String> trusted) {

    public static final String SERVER_ANNOTATION = EtcdOperatorApi.RESERVED_PREFIX + "tls-server-sha256";
    public static final String PEER_ANNOTATION = EtcdOperatorApi.RESERVED_PREFIX + "tls-peer-sha256";
    public static final String TRUSTED_ANNOTATION = EtcdOperatorApi.RESERVED_PREFIX + "tls-trusted-sha256";

    public MemberMaterial {
        trusted = List.copyOf(trusted);
    }

    public Map<String, String> annotations() {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(SERVER_ANNOTATION, serverFingerprint);
        out.put(PEER_ANNOTATION, peerFingerprint);
        out.put(TRUSTED_ANNOTATION, String.join(",", trusted));
        return out;
    }

    /** Empty when the Pod predates operator-issued TLS or an annotation is missing: such a member is stale. */
    public static Optional<MemberMaterial> fromAnnotations(Map<String, String> annotations) {
        if (annotations == null) {
            return Optional.empty();
        }
        String server = annotations.get(SERVER_ANNOTATION);
        String peer = annotations.get(PEER_ANNOTATION);
        String trusted = annotations.get(TRUSTED_ANNOTATION);
        if (server == null || peer == null || trusted == null || trusted.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new MemberMaterial(server, peer, Arrays.asList(trusted.split(","))));
    }

    public boolean trusts(String caFingerprint) {
        return trusted.contains(caFingerprint);
    }
}
