package io.etcdoperator.operator.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.reason.Reason;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient
class CertManagerGateTest {

    KubernetesMockServer server;
    KubernetesClient client;

    @Test
    void aCertManagerClusterIsBlockedWhenCertManagerIsAbsent() {
        assertThat(CertManagerGate.blocks(TlsClusters.certManager("i", "i", "i", null), false))
                .isTrue();
        assertThat(Reason.CERT_MANAGER_NOT_INSTALLED.reason()).isEqualTo("CertManagerNotInstalled");
        assertThat(CertManagerGate.MESSAGE).contains("install cert-manager");
    }

    @Test
    void nothingIsBlockedWhenCertManagerIsPresentOrNotUsed() {
        assertThat(CertManagerGate.blocks(TlsClusters.certManager("i", null, "i", null), true))
                .isFalse();
        assertThat(CertManagerGate.blocks(TlsClusters.bringYourOwn(), false)).isFalse();
        assertThat(CertManagerGate.blocks(TlsClusters.certManager(null, null, "i", null), false))
                .isTrue();
    }

    @Test
    void discoveryFindsCertManagerWhenItsApiIsServed() throws Exception {
        server.expect()
                .get()
                .withPath("/apis/cert-manager.io/v1")
                .andReturn(200, """
        {"kind":"APIResourceList","apiVersion":"v1","groupVersion":"cert-manager.io/v1","resources":[
          {"name":"certificates","singularName":"certificate","namespaced":true,"kind":"Certificate",
           "verbs":["get","list","watch","create"]}]}
        """)
                .always();

        assertThat(CertManagerDiscovery.installed(client)).isTrue();
        assertThat(paths()).allMatch(p -> !p.contains("/certificates"));
    }

    @Test
    void absentCertManagerIsDetectedByDiscoveryAloneAndItsApiIsNeverCalled() throws Exception {
        boolean installed = CertManagerDiscovery.installed(client);

        assertThat(installed).isFalse();
        assertThat(CertManagerGate.blocks(TlsClusters.certManager("i", "i", "i", null), installed))
                .isTrue();
        assertThat(paths()).isNotEmpty().allMatch(p -> p.startsWith("/api") && !p.contains("/certificates"));
    }

    private List<String> paths() throws InterruptedException {
        List<String> paths = new ArrayList<>();
        for (RecordedRequest r = server.takeRequest(100, TimeUnit.MILLISECONDS);
                r != null;
                r = server.takeRequest(100, TimeUnit.MILLISECONDS)) {
            paths.add(r.getPath());
        }
        return paths;
    }
}
