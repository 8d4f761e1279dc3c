package io.etcdoperator.operator.tls;

import io.etcdoperator.api.v1alpha2.EtcdCluster;

/**
 * Whether a cluster may go on with reconciling given cert-manager's presence (detected once at startup). A cluster
 * that asks for cert-manager when it is absent is blocked, and the caller must not touch cert-manager's API at all.
 */
public final class CertManagerGate {

    public static final String MESSAGE = "spec.tls uses certManager but the cert-manager.io/v1 Certificate API is not "
            + "served; install cert-manager and restart the operator, or switch to Secrets you provide";

    private CertManagerGate() {}

    /** The cluster asks for cert-manager and it is absent: Available=False, CertManagerNotInstalled; nothing else. */
    public static boolean blocks(EtcdCluster cluster, boolean certManagerInstalled) {
        return !certManagerInstalled && CertManagerCertificates.usesCertManager(cluster);
    }
}
