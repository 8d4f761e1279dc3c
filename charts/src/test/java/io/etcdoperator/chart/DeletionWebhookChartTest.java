package io.etcdoperator.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** deletionProtection.webhook: the configuration, its Service, the operator's flags and the RBAC to set caBundle. */
class DeletionWebhookChartTest {

    static final Map<String, Object> ENABLED = Map.of("deletionProtection.webhook.enabled", true);

    @Test
    void offByDefault() {
        List<HasMetadata> objects = ChartTest.render(Map.of());
        assertThat(ChartTest.all(objects, ValidatingWebhookConfiguration.class)).isEmpty();
        assertThat(args(objects)).noneMatch(a -> a.startsWith("--webhook"));
    }

    @Test
    void callsTheOperatorThroughItsServiceAndIgnoresItsAbsenceByDefault() {
        List<HasMetadata> objects = ChartTest.render(ENABLED);
        var configuration = ChartTest.find(objects, ValidatingWebhookConfiguration.class);
        assertThat(configuration.getMetadata().getName()).isEqualTo("etcd-operator-deletion-protection");
        assertThat(configuration.getWebhooks()).hasSize(2).allSatisfy(w -> {
            assertThat(w.getFailurePolicy()).isEqualTo("Ignore");
            assertThat(w.getSideEffects()).isEqualTo("None");
            assertThat(w.getAdmissionReviewVersions()).containsExactly("v1");
            assertThat(w.getClientConfig().getCaBundle())
                    .as("the operator sets it")
                    .isNull();
            assertThat(w.getClientConfig().getService().getName()).isEqualTo("etcd-operator-webhook");
            assertThat(w.getClientConfig().getService().getPath()).isEqualTo("/validate-deletion");
            assertThat(w.getRules())
                    .allSatisfy(r -> assertThat(r.getOperations()).containsExactly("DELETE"));
        });
        assertThat(configuration
                        .getWebhooks()
                        .get(1)
                        .getObjectSelector()
                        .getMatchExpressions()
                        .getFirst()
                        .getKey())
                .isEqualTo("etcd-operator.cozystack.io/cluster");
        var service = ChartTest.named(objects, Service.class, "etcd-operator-webhook");
        assertThat(service.getSpec().getPorts().getFirst().getPort()).isEqualTo(443);
        assertThat(service.getSpec().getPorts().getFirst().getTargetPort().getStrVal())
                .isEqualTo("webhook");
        assertThat(args(objects))
                .contains(
                        "--webhook-bind-address=:9443",
                        "--webhook-service=etcd-operator-webhook",
                        "--webhook-configuration=etcd-operator-deletion-protection",
                        "--webhook-ca-secret=etcd-operator-webhook-ca",
                        "--webhook-operator-user=system:serviceaccount:" + ChartTest.NAMESPACE + ":etcd-operator");
        assertThat(ChartTest.find(objects, Deployment.class)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getPorts())
                .anyMatch(p -> "webhook".equals(p.getName()) && p.getContainerPort() == 9443);
    }

    @Test
    void failCanBeChosen() {
        var configuration = ChartTest.find(
                ChartTest.render(Map.of(
                        "deletionProtection.webhook.enabled",
                        true,
                        "deletionProtection.webhook.failurePolicy",
                        "Fail")),
                ValidatingWebhookConfiguration.class);
        assertThat(configuration.getWebhooks())
                .allSatisfy(w -> assertThat(w.getFailurePolicy()).isEqualTo("Fail"));
    }

    @Test
    void rbacCoversOnlyItsConfigurationAndCaSecret() {
        List<HasMetadata> objects = ChartTest.render(ENABLED);
        var rule = ChartTest.named(objects, ClusterRole.class, "etcd-operator-webhook")
                .getRules()
                .getFirst();
        assertThat(rule.getResources()).containsExactly("validatingwebhookconfigurations");
        assertThat(rule.getResourceNames()).containsExactly("etcd-operator-deletion-protection");
        assertThat(rule.getVerbs()).containsExactly("get", "patch");
        var role = ChartTest.named(objects, Role.class, "etcd-operator-webhook");
        assertThat(role.getMetadata().getNamespace()).isEqualTo(ChartTest.NAMESPACE);
        assertThat(role.getRules())
                .anyMatch(r -> r.getResourceNames().contains("etcd-operator-webhook-ca")
                        && r.getVerbs().equals(List.of("get")));
    }

    @Test
    void theOperatorsNetworkPolicyLetsTheApiServerIn() {
        var policy = ChartTest.find(
                ChartTest.render(
                        Map.of("deletionProtection.webhook.enabled", true, "networkPolicy.operator.enabled", true)),
                NetworkPolicy.class);
        assertThat(policy.getSpec().getIngress())
                .anyMatch(i -> i.getFrom().isEmpty()
                        && i.getPorts().getFirst().getPort().getIntVal() == 9443);
    }

    static List<String> args(List<HasMetadata> objects) {
        return ChartTest.find(objects, Deployment.class)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .getFirst()
                .getArgs();
    }
}
