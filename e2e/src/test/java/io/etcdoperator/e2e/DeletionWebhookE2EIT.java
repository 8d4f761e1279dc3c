package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The deletion-protection webhook served by the operator, called by a real kube-apiserver 1.20 (which has no
 * ValidatingAdmissionPolicy): a person's delete of an EtcdMember or of a member's data PVC is refused with the way out
 * in the message, and the annotation lets it through (the member is replaced, READY=3 again).
 */
@ExtendWith(LocalKubernetesExtension.class)
class DeletionWebhookE2EIT {

    private static final String CONFIGURATION = "etcd-operator-deletion-protection";

    @Test
    void deletesOfMembersAndTheirVolumesAreRefusedUnlessAllowed(E2eEnvironment env) throws Exception {
        Assumptions.assumeTrue(env.operatorFromImage(), "the chart's operator serves the webhook");
        String ns = env.formedPvcCluster("protect", "pr");
        try {
            env.upgradeChart(List.of(
                    "--set",
                    "deletionProtection.webhook.enabled=true",
                    "--set",
                    "deletionProtection.webhook.failurePolicy=Fail"));
            callOperatorByAddress(env);
            String member = env.members(ns, "pr").getFirst().getMetadata().getName();
            Resource<GenericKubernetesResource> ref = env.client()
                    .genericKubernetesResources(E2eEnvironment.MEMBERS)
                    .inNamespace(ns)
                    .withName(member);
            String uid = ref.get().getMetadata().getUid();
            // a dry-run delete reaches the webhook too: wait until it is the webhook that answers
            AtomicReference<String> last = new AtomicReference<>("");
            try {
                Await.until("the webhook answers for " + member, Duration.ofMinutes(1), () -> {
                    last.set(refusal(() -> ref.dryRun().delete()));
                    return last.get().contains("is protected from deletion");
                });
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "; the last answer: " + last.get(), e);
            }

            assertThat(refusal(ref::delete))
                    .startsWith("403 ")
                    .contains("EtcdMember " + ns + "/" + member + " is protected from deletion")
                    .contains("etcd-operator.cozystack.io/allow-delete");
            assertThat(ref.get().getMetadata().getUid())
                    .as("the member is still there")
                    .isEqualTo(uid);
            var pvc = env.client().persistentVolumeClaims().inNamespace(ns).withName("data-" + member);
            assertThat(refusal(pvc::delete)).startsWith("403 ").contains("is protected from deletion");
            assertThat(pvc.get().getMetadata().getDeletionTimestamp()).isNull();
            System.out.printf("webhook refused: EtcdMember %s and PVC data-%s%n", member, member);

            ref.patch(
                    PatchContext.of(PatchType.JSON_MERGE),
                    "{\"metadata\":{\"annotations\":{\"etcd-operator.cozystack.io/allow-delete\":\"true\"}}}");
            ref.delete();
            Await.until(
                    member + " gone, READY=3 again",
                    Duration.ofMinutes(3),
                    () -> ref.get() == null && WritingClient.ready(env, ns, "pr") == 3);

            // the garbage collector's deletes are allowed by user name (DeletionProtectionTest); local-kube's
            // controller-manager calls as the admin, so they are not shown here
        } finally {
            env.upgradeChart(List.of("--set", "deletionProtection.webhook.enabled=false"));
            // the three members would run beside every later class
            env.client()
                    .genericKubernetesResources(E2eEnvironment.CLUSTERS)
                    .inNamespace(ns)
                    .withName("pr")
                    .delete();
        }
    }

    /**
     * This kube-apiserver dials a Service-referenced webhook by its DNS name, which the host does not resolve: the
     * webhooks are pointed at the operator Pod's address instead, which its serving certificate names (POD_IP).
     */
    private static void callOperatorByAddress(E2eEnvironment env) {
        KubernetesClient client = env.client();
        // the upgraded Pod, the one with the webhook's port: the old one may still be listed for a moment
        Pod operator = Await.value(
                "the operator Pod that serves the webhook",
                Duration.ofMinutes(2),
                () -> client.pods().inNamespace(OperatorPod.NAMESPACE).list().getItems().stream()
                        .filter(p -> p.getStatus().getPodIP() != null
                                && webhookPort(p).isPresent())
                        .findFirst());
        int port = webhookPort(operator).orElseThrow();
        String url = "https://" + operator.getStatus().getPodIP() + ":" + port + "/validate-deletion";
        client.admissionRegistration()
                .v1()
                .validatingWebhookConfigurations()
                .withName(CONFIGURATION)
                .edit(c -> {
                    c.getWebhooks().forEach(w -> {
                        w.getClientConfig().setService(null);
                        w.getClientConfig().setUrl(url);
                    });
                    return c;
                });
    }

    private static Optional<Integer> webhookPort(Pod pod) {
        return pod.getSpec().getContainers().getFirst().getPorts().stream()
                .filter(p -> "webhook".equals(p.getName()))
                .map(ContainerPort::getContainerPort)
                .findFirst();
    }

    /** The API server's code and message for a refused call; empty when the call went through. */
    private static String refusal(Runnable call) {
        try {
            call.run();
            return "";
        } catch (KubernetesClientException e) {
            return e.getCode() + " " + e.getMessage();
        }
    }
}
