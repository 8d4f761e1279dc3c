package io.etcdoperator.operator.reads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class CachePassTest {

    static KubernetesClient client;
    static KubernetesMockServer server;

    private static KubernetesClient guarded() {
        return new KubernetesClientBuilder()
                .withConfig(client.getConfiguration())
                .withHttpClientBuilderConsumer(CachePass::guard)
                .build();
    }

    @Test
    void insideACachePassNoRequestLeavesAndThePassEndsAtTheFirst() {
        try (KubernetesClient guarded = guarded()) {
            int before = server.getRequestCount();
            assertThatThrownBy(() -> CachePass.run(
                            () -> guarded.pods().inNamespace("a").withName("p").get()))
                    .isInstanceOf(CachePass.NeedsApiServer.class)
                    .hasMessage("GET /api/v1/namespaces/a/pods/p");
            assertThat(server.getRequestCount()).isEqualTo(before);
            assertThat(guarded.pods().inNamespace("a").withName("p").get())
                    .as("outside a cache pass")
                    .isNull();
            assertThat(server.getRequestCount()).isEqualTo(before + 1);
        }
    }

    @Test
    void aStopCaughtInsideThePassStillEndsIt() {
        try (KubernetesClient guarded = guarded()) {
            assertThatThrownBy(() -> CachePass.run(() -> {
                        try {
                            guarded.namespaces().withName("x").delete();
                        } catch (RuntimeException swallowed) {
                            // code inside a pass that catches too widely must not turn a stop into "nothing to do"
                        }
                        return true;
                    }))
                    .isInstanceOf(CachePass.NeedsApiServer.class)
                    .hasMessageContaining("DELETE");
        }
    }

    @Test
    void aClientWithoutTheGuardIsRefused() {
        assertThatThrownBy(() -> CachePass.on(client)).isInstanceOf(IllegalStateException.class);
        try (KubernetesClient guarded = guarded()) {
            assertThat(CachePass.on(guarded).enabled()).isTrue();
        }
        assertThat(CachePass.running()).isFalse();
    }
}
