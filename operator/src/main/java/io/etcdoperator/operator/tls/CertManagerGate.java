package io.etcdoperator.operator.tls;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import java.util.Optional;

/**
 * Whether a cluster may go on with reconciling given cert-manager's presence (detected once at startup). A cluster
 * that asks for cert-manager when it is absent is blocked, and the caller must not touch cert-manager's API at all.
 */
public final class CertManagerGate {

    public static final String REASON = "CertManagerNotInstalled";
    public static final String MESSAGE = "spec.tls uses certManager but the cert-manager.io/v1 Certificate API is not "
            + "served; install cert-manager and restart the operator, or switch to Secrets you provide";

    /** Why the cluster cannot proceed; goes to Available=False with this reason. */
    public record Blocked(String reason, String message) {}

    private CertManagerGate() {}

    public static Optional<Blocked> check(EtcdCluster cluster, boolean certManagerInstalled) {
        if (certManagerInstalled || !CertManagerCertificates.usesCertManager(cluster)) {
            return Optional.empty();
        }
        return Optional.of(new Blocked(REASON, MESSAGE));
    }
}
