package io.etcdoperator.operator.admission;

import io.etcdoperator.operator.resources.Labels;
import io.etcdoperator.pki.CertificateAuthority;
import io.etcdoperator.pki.CertifiedKey;
import io.etcdoperator.pki.LeafProfile;
import io.etcdoperator.pki.Pem;
import io.etcdoperator.pki.SubjectAltNames;
import io.etcdoperator.pki.Validity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhook's CA lives in a Secret so that restarts and other replicas present certificates the configured
 * caBundle already trusts; each start issues a fresh serving certificate from it, kept in memory only.
 */
public final class WebhookCertificates {

    private static final Logger LOG = LoggerFactory.getLogger(WebhookCertificates.class);
    static final String CA_CERT = "ca.crt";
    static final String CA_KEY = "ca.key";
    static final Duration CA_LIFETIME = Duration.ofDays(3650);
    static final Duration BACKDATE = Duration.ofMinutes(5);

    private final KubernetesClient client;
    private final Clock clock;

    public WebhookCertificates(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** The CA in {@code namespace/secret}, created there when absent; a replica that loses the race reads the winner's. */
    public CertificateAuthority authority(String namespace, String secret) {
        var ref = client.secrets().inNamespace(namespace).withName(secret);
        Secret stored = ref.get();
        if (stored == null) {
            CertificateAuthority created = CertificateAuthority.create(
                    "etcd-operator webhook", Validity.starting(clock.instant(), CA_LIFETIME, BACKDATE));
            try {
                client.secrets()
                        .inNamespace(namespace)
                        .resource(new SecretBuilder()
                                .withNewMetadata()
                                .withName(secret)
                                .withNamespace(namespace)
                                .withLabels(Map.of(Labels.MANAGED_BY, Labels.MANAGER))
                                .endMetadata()
                                .withType("Opaque")
                                .addToData(CA_CERT, base64(created.signer().certificatePem()))
                                .addToData(CA_KEY, base64(created.signer().privateKeyPem()))
                                .build())
                        .create();
                LOG.atInfo().addKeyValue("secret", namespace + "/" + secret).log("created the webhook CA");
                return created;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
                stored = ref.get();
            }
        }
        return CertificateAuthority.of(CertifiedKey.fromPem(decode(stored, CA_CERT), decode(stored, CA_KEY)));
    }

    /** A serving certificate for the webhook Service's DNS names, valid as long as its CA. */
    public CertifiedKey serving(CertificateAuthority ca, String service, String namespace) {
        return serving(ca, service, namespace, Optional.empty());
    }

    /** ... and for the Pod's own address, which an API server without Service routing calls by a url. */
    public CertifiedKey serving(CertificateAuthority ca, String service, String namespace, Optional<String> podIp) {
        List<String> names =
                List.of(service + "." + namespace + ".svc", service + "." + namespace + ".svc.cluster.local");
        return ca.issue(
                LeafProfile.SERVER,
                names.getFirst(),
                new SubjectAltNames(names, podIp.stream().toList()),
                Validity.starting(clock.instant(), CA_LIFETIME, BACKDATE));
    }

    /** Sets every webhook's caBundle in the configuration; a configuration that is absent is only logged. */
    public void publish(CertificateAuthority ca, String configuration) {
        var ref = client.admissionRegistration()
                .v1()
                .validatingWebhookConfigurations()
                .withName(configuration);
        String bundle = base64(Pem.encode(ca.certificate()));
        var current = ref.get();
        if (current == null) {
            LOG.atWarn()
                    .addKeyValue("configuration", configuration)
                    .log(
                            "no ValidatingWebhookConfiguration to publish the webhook CA to; the API server will not call us");
            return;
        }
        if (current.getWebhooks().stream()
                .allMatch(w -> bundle.equals(w.getClientConfig().getCaBundle()))) {
            return;
        }
        ref.edit(c -> {
            c.getWebhooks().forEach(w -> w.getClientConfig().setCaBundle(bundle));
            return c;
        });
        LOG.atInfo().addKeyValue("configuration", configuration).log("published the webhook CA as caBundle");
    }

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static byte[] decode(Secret secret, String key) {
        String value = secret.getData() == null ? null : secret.getData().get(key);
        if (value == null) {
            throw new IllegalStateException("Secret " + secret.getMetadata().getName() + " has no " + key);
        }
        return Base64.getDecoder().decode(value.getBytes(StandardCharsets.US_ASCII));
    }
}
