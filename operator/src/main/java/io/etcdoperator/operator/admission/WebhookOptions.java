package io.etcdoperator.operator.admission;

import io.etcdoperator.operator.config.OperatorConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Option;

/** The flags of the deletion-protection webhook; without --webhook-bind-address there is no webhook. */
public final class WebhookOptions {

    @Option(
            names = "--webhook-bind-address",
            defaultValue = "",
            description = "HTTPS address of the deletion-protection webhook, e.g. ':9443' (default: no webhook).")
    String bindAddress;

    @Option(
            names = "--webhook-service",
            defaultValue = "etcd-operator-webhook",
            description = "Service in $POD_NAMESPACE through which the API server calls the webhook.")
    String service;

    @Option(
            names = "--webhook-configuration",
            defaultValue = "etcd-operator-deletion-protection",
            description = "ValidatingWebhookConfiguration whose caBundle the operator sets.")
    String configuration;

    @Option(
            names = "--webhook-ca-secret",
            defaultValue = "etcd-operator-webhook-ca",
            description = "Secret in $POD_NAMESPACE that keeps the webhook's CA across restarts.")
    String caSecret;

    @Option(
            names = "--webhook-operator-user",
            defaultValue = "",
            description = "User name whose deletions are the operator's own (default: system:serviceaccount:"
                    + "$POD_NAMESPACE:$SERVICE_ACCOUNT_NAME).")
    String operatorUser;

    @Option(
            names = "--webhook-namespace",
            defaultValue = "${env:POD_NAMESPACE:-default}",
            description = "Namespace of the webhook Service and CA Secret (default: $POD_NAMESPACE, else default).")
    String namespace;

    /** Starts the webhook when asked to: CA from its Secret, a fresh serving certificate, caBundle published. */
    public Optional<WebhookServer> start(KubernetesClient client, List<String> watchNamespaces) throws IOException {
        if (bindAddress == null || bindAddress.isBlank()) {
            return Optional.empty();
        }
        var address = OperatorConfig.bindAddress("--webhook-bind-address", bindAddress);
        String user = operatorUser.isBlank()
                ? "system:serviceaccount:" + namespace + ":" + System.getenv().getOrDefault("SERVICE_ACCOUNT_NAME", "")
                : operatorUser;
        if (user.endsWith(":")) {
            throw new OperatorConfig.InvalidConfigException(
                    "--webhook-bind-address needs --webhook-operator-user or $SERVICE_ACCOUNT_NAME");
        }
        var certificates = new WebhookCertificates(client, Clock.systemUTC());
        var ca = certificates.authority(namespace, caSecret);
        var server = new WebhookServer(
                address,
                certificates.serving(
                        ca,
                        service,
                        namespace,
                        Optional.ofNullable(System.getenv("POD_IP")).filter(ip -> !ip.isBlank())),
                ca.certificate(),
                new DeletionReviews(new DeletionProtection(user, Set.copyOf(watchNamespaces))));
        certificates.publish(ca, configuration);
        return Optional.of(server);
    }
}
