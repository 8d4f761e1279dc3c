package io.etcdoperator.operator.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.pki.Pem;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Clock;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class WebhookCertificatesMockTest {

    static KubernetesClient client;

    @Test
    void theCaSurvivesARestartAndBecomesEveryWebhooksCaBundle() throws Exception {
        var certificates = new WebhookCertificates(client, Clock.systemUTC());
        var first = certificates.authority("ops", "webhook-ca");
        var again = new WebhookCertificates(client, Clock.systemUTC()).authority("ops", "webhook-ca");
        assertThat(again.certificate()).isEqualTo(first.certificate());

        var serving = certificates.serving(first, "etcd-operator-webhook", "ops");
        serving.certificate().verify(first.certificate().getPublicKey());
        assertThat(serving.certificate().getSubjectAlternativeNames().stream()
                        .map(n -> (Object) n.get(1))
                        .toList())
                .contains("etcd-operator-webhook.ops.svc");
        var byAddress = certificates.serving(first, "etcd-operator-webhook", "ops", Optional.of("10.234.0.7"));
        assertThat(byAddress.certificate().getSubjectAlternativeNames().stream()
                        .map(n -> (Object) n.get(1))
                        .toList())
                .as("the Pod's address, for an API server that calls the webhook by a url")
                .contains("etcd-operator-webhook.ops.svc", "10.234.0.7");

        client.resource(new ValidatingWebhookConfigurationBuilder()
                        .withNewMetadata()
                        .withName("protect")
                        .endMetadata()
                        .addNewWebhook()
                        .withName("a.example.com")
                        .withNewClientConfig()
                        .endClientConfig()
                        .endWebhook()
                        .addNewWebhook()
                        .withName("b.example.com")
                        .withNewClientConfig()
                        .withCaBundle("c3RhbGU=")
                        .endClientConfig()
                        .endWebhook()
                        .build())
                .create();
        certificates.publish(first, "protect");
        var published = client.admissionRegistration()
                .v1()
                .validatingWebhookConfigurations()
                .withName("protect")
                .get();
        String expected = Base64.getEncoder().encodeToString(Pem.encode(first.certificate()));
        assertThat(published.getWebhooks())
                .allSatisfy(w -> assertThat(w.getClientConfig().getCaBundle()).isEqualTo(expected));
    }

    @Test
    void anAbsentConfigurationIsNoFailure() {
        var certificates = new WebhookCertificates(client, Clock.systemUTC());
        certificates.publish(certificates.authority("ops", "other-ca"), "absent");
        assertThat(client.secrets()
                        .inNamespace("ops")
                        .withName("other-ca")
                        .get()
                        .getData())
                .containsKeys(WebhookCertificates.CA_CERT, WebhookCertificates.CA_KEY);
    }
}
