package io.etcdoperator.operator.tls;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** The one call that asks whether cert-manager is installed: API discovery only, never a Certificate request. */
public final class CertManagerDiscovery {

    private CertManagerDiscovery() {}

    public static boolean installed(KubernetesClient client) {
        try {
            return client.supports(CertManagerCertificates.API_VERSION, CertManagerCertificates.KIND);
        } catch (KubernetesClientException e) {
            return false; // a discovery failure at startup is treated as absent; restarting the operator re-checks
        }
    }
}
