package io.etcdoperator.operator.reads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdoperator.operator.MovableClock;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class SecretReadsTest {

    static KubernetesClient client;
    static KubernetesMockServer server;

    private final MovableClock clock = new MovableClock(Instant.parse("2026-11-27T10:00:00Z"));

    private static KubernetesClient guarded() {
        return new KubernetesClientBuilder()
                .withConfig(client.getConfiguration())
                .withHttpClientBuilderConsumer(CachePass::guard)
                .build();
    }

    private static void secret(String ns, String name, String value) {
        client.secrets()
                .inNamespace(ns)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .addToAnnotations(
                                "kubectl.kubernetes.io/last-applied-configuration",
                                "{\"data\":{\"password\":\"" + value + "\"}}")
                        .endMetadata()
                        .addToData("password", value)
                        .build())
                .createOr(r -> r.update());
    }

    @Test
    void aCachePassAnswersFromTheLastReadAndSendsNothing() {
        secret("a", "root", "czNjcmV0");
        try (KubernetesClient guarded = guarded()) {
            SecretReads secrets = new SecretReads(guarded, clock);
            Secret read = secrets.get("a", "root").orElseThrow();
            assertThat(read.getData()).containsEntry("password", "czNjcmV0");
            int before = server.getRequestCount();

            Secret remembered = CachePass.run(() -> secrets.get("a", "root")).orElseThrow();

            assertThat(server.getRequestCount()).isEqualTo(before);
            assertThat(remembered.getData()).isEqualTo(Map.of("password", "czNjcmV0"));
            assertThat(remembered.getMetadata().getResourceVersion())
                    .isEqualTo(read.getMetadata().getResourceVersion());
            assertThat(remembered.getMetadata().getAnnotations())
                    .as("kubectl's copy of the data is not kept")
                    .isEmpty();
            remembered.getData().put("password", "changed");
            assertThat(CachePass.run(() -> secrets.get("a", "root"))
                            .orElseThrow()
                            .getData())
                    .as("each answer is a copy")
                    .containsEntry("password", "czNjcmV0");
        }
    }

    @Test
    void aUsersSecretReadOverAMinuteAgoIsReadAgainAloneAndTheCachePassGoesOn() {
        secret("b", "root", "b2xk");
        try (KubernetesClient guarded = guarded()) {
            SecretReads secrets = new SecretReads(guarded, clock);
            secrets.get("b", "root");
            secret("b", "root", "bmV3");
            clock.advance(SecretReads.USER_REREAD.minusSeconds(1));
            int before = server.getRequestCount();
            assertThat(CachePass.run(() -> secrets.get("b", "root"))
                            .orElseThrow()
                            .getData())
                    .as("within the period: what was read")
                    .containsEntry("password", "b2xk");
            assertThat(server.getRequestCount()).isEqualTo(before);

            clock.advance(Duration.ofSeconds(2));
            assertThat(CachePass.run(() -> secrets.get("b", "root"))
                            .orElseThrow()
                            .getData())
                    .as("the period is over: the cache pass reads it again and sees the change")
                    .containsEntry("password", "bmV3");
            assertThat(server.getRequestCount()).as("one GET, nothing else").isEqualTo(before + 1);
            assertThat(CachePass.run(() -> secrets.get("b", "root"))
                            .orElseThrow()
                            .getData())
                    .containsEntry("password", "bmV3");
            assertThat(server.getRequestCount()).isEqualTo(before + 1);
        }
    }

    @Test
    void aSecretTheOperatorOwnsIsReadAgainOnlyAfterFiveMinutes() {
        client.secrets()
                .inNamespace("e")
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName("applied")
                        .addNewOwnerReference()
                        .withApiVersion("etcd-operator.cozystack.io/v1alpha2")
                        .withKind("EtcdCluster")
                        .withName("e")
                        .withUid("u-e")
                        .withController(true)
                        .endOwnerReference()
                        .endMetadata()
                        .addToData("password", "b2xk")
                        .build())
                .create();
        try (KubernetesClient guarded = guarded()) {
            SecretReads secrets = new SecretReads(guarded, clock);
            secrets.get("e", "applied");
            clock.advance(SecretReads.REREAD.minusSeconds(1));
            int before = server.getRequestCount();
            CachePass.run(() -> secrets.get("e", "applied"));
            assertThat(server.getRequestCount())
                    .as("past a user's period, within the operator's")
                    .isEqualTo(before);
            clock.advance(Duration.ofSeconds(2));
            CachePass.run(() -> secrets.get("e", "applied"));
            assertThat(server.getRequestCount()).isEqualTo(before + 1);
        }
    }

    @Test
    void aCachePassThatWasAlreadyStoppedSendsNoSecretRead() {
        try (KubernetesClient guarded = guarded()) {
            SecretReads secrets = new SecretReads(guarded, clock);
            int before = server.getRequestCount();
            assertThatThrownBy(() -> CachePass.run(() -> {
                        try {
                            guarded.pods().inNamespace("f").list();
                        } catch (CachePass.NeedsApiServer swallowed) {
                            // code that catches the stop and goes on must not get a request out
                        }
                        return secrets.get("f", "root");
                    }))
                    .isInstanceOf(CachePass.NeedsApiServer.class)
                    .hasMessageContaining("GET");
            assertThat(server.getRequestCount()).isEqualTo(before);
        }
    }

    @Test
    void aMissingSecretIsRememberedAsMissingForAMinute() {
        try (KubernetesClient guarded = guarded()) {
            SecretReads secrets = new SecretReads(guarded, clock);
            int before = server.getRequestCount();
            assertThat(CachePass.run(() -> secrets.get("c", "absent")))
                    .as("never read: read in the cache pass")
                    .isEmpty();
            assertThat(server.getRequestCount()).isEqualTo(before + 1);
            assertThat(CachePass.run(() -> secrets.get("c", "absent"))).isEmpty();
            assertThat(server.getRequestCount()).isEqualTo(before + 1);
            secret("c", "absent", "bmV3");
            clock.advance(SecretReads.USER_REREAD.plusSeconds(1));
            assertThat(CachePass.run(() -> secrets.get("c", "absent")))
                    .as("created since")
                    .isPresent();
        }
    }

    @Test
    void readsOfSecretsNoPassAsksForAnyMoreAreForgotten() {
        secret("d", "one", "MQ==");
        secret("d", "two", "Mg==");
        try (KubernetesClient guarded = guarded()) {
            SecretReads secrets = new SecretReads(guarded, clock);
            secrets.get("d", "one");
            clock.advance(SecretReads.REREAD.plusSeconds(1));
            secrets.get("d", "two");
            assertThat(secrets.remembered())
                    .as("the read of 'one' outlived the period")
                    .isEqualTo(1);
        }
    }
}
