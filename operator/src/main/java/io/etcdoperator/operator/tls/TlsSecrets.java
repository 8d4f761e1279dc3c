package io.etcdoperator.operator.tls;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.operator.planner.LeafRole;
import io.etcdoperator.operator.resources.Labels;
import io.etcdoperator.operator.resources.Owners;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The Secrets of operator-issued TLS, all {@code kubernetes.io/tls} with {@code tls.crt}, {@code tls.key} and
 * {@code ca.crt} (the trust bundle). The CA Secret holds the signing CA; the bundle may hold two CAs mid-rotation.
 * Key material only ever goes into {@code data}; nothing here logs or describes it.
 */
public final class TlsSecrets {

    public static final String TYPE = "kubernetes.io/tls";
    public static final String CERT = "tls.crt";
    public static final String KEY = "tls.key";
    public static final String CA = "ca.crt";
    public static final String ROLE_ANNOTATION = "etcd-operator.cozystack.io/tls-role";

    private TlsSecrets() {}

    public static Secret ca(EtcdCluster cluster, TlsNames names, byte[] certPem, byte[] keyPem, byte[] bundlePem) {
        return secret(cluster, names.caSecret(), "ca", certPem, keyPem, bundlePem);
    }

    public static Secret leaf(
            EtcdCluster cluster, TlsNames names, LeafRole role, byte[] certPem, byte[] keyPem, byte[] bundlePem) {
        String name = switch (role) {
            case SERVER -> names.serverSecret();
            case PEER -> names.peerSecret();
            case OPERATOR_CLIENT -> names.operatorClientSecret();
        };
        return secret(
                cluster, name, role.name().toLowerCase(Locale.ROOT).replace('_', '-'), certPem, keyPem, bundlePem);
    }

    /** The same Secret with a new {@code ca.crt}; certificate and key untouched (the SyncTrust step). */
    public static Secret withTrust(Secret secret, byte[] bundlePem) {
        Map<String, String> data = new LinkedHashMap<>(secret.getData());
        data.put(CA, encode(bundlePem));
        return new SecretBuilder(secret).withData(data).build();
    }

    private static Secret secret(
            EtcdCluster cluster, String name, String role, byte[] certPem, byte[] keyPem, byte[] bundlePem) {
        Map<String, String> data = new LinkedHashMap<>();
        data.put(CERT, encode(certPem));
        data.put(KEY, encode(keyPem));
        data.put(CA, encode(bundlePem));
        return new SecretBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(cluster.getMetadata().getNamespace())
                .withLabels(Labels.cluster(cluster.getMetadata().getName()))
                .addToAnnotations(ROLE_ANNOTATION, role)
                .withOwnerReferences(Owners.controller(cluster))
                .endMetadata()
                .withType(TYPE)
                .withData(data)
                .build();
    }

    private static String encode(byte[] pem) {
        return Base64.getEncoder().encodeToString(pem);
    }
}
