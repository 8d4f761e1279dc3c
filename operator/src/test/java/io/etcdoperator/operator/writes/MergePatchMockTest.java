package io.etcdoperator.operator.writes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberStatus;
import io.etcdoperator.operator.MockCrds;
import io.etcdoperator.operator.TestClusters;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A merge patch by name is one PATCH request, where fabric8's own patch by name GETs the object first. */
@EnableKubernetesMockClient(crud = true)
class MergePatchMockTest {

    static KubernetesClient client;
    static KubernetesMockServer server;
    private static final String NS = "default";

    @BeforeEach
    void setUp() {
        MockCrds.install(client);
    }

    private List<String> requestsOf(Runnable write) throws InterruptedException {
        while (server.takeRequest(1, TimeUnit.MILLISECONDS) != null) {} // the test's own
        int before = server.getRequestCount();
        try {
            write.run();
        } catch (KubernetesClientException e) {
            // counted all the same
        }
        List<String> sent = new ArrayList<>();
        for (int i = before; i < server.getRequestCount(); i++) {
            RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
            sent.add(request.getMethod() + " " + request.getPath());
        }
        return sent;
    }

    private EtcdMember member(String name) {
        EtcdMember created =
                client.resource(TestClusters.member(NS, name, "demo")).create();
        EtcdMemberStatus status = new EtcdMemberStatus();
        status.setPodName(name);
        created.setStatus(status);
        return client.resource(created).updateStatus();
    }

    @Test
    void aPodsLabelsArePatchedInOneRequestAndTheRestIsKept() throws InterruptedException {
        client.resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("demo-a")
                        .withNamespace(NS)
                        .withLabels(Map.of("keep", "me", "role", "learner"))
                        .endMetadata()
                        .build())
                .create();

        assertThat(requestsOf(() -> MergePatch.of(
                        client, Pod::new, NS, "demo-a", Map.of("metadata", Map.of("labels", Map.of("role", "voter"))))))
                .containsExactly("PATCH /api/v1/namespaces/default/pods/demo-a");
        assertThat(client.pods()
                        .inNamespace(NS)
                        .withName("demo-a")
                        .get()
                        .getMetadata()
                        .getLabels())
                .containsExactlyInAnyOrderEntriesOf(Map.of("keep", "me", "role", "voter"));
    }

    @Test
    void aStatusFieldIsPatchedOnTheSubresourceAndTheOthersAreKept() throws InterruptedException {
        member("demo-b");
        String path = "/apis/etcd-operator.cozystack.io/v1alpha2/namespaces/default/etcdmembers/demo-b/status";

        assertThat(requestsOf(() -> MergePatch.ofStatus(
                        client, EtcdMember::new, NS, "demo-b", Map.of("status", Map.of("isVoter", true)))))
                .containsExactly("PATCH " + path);
        EtcdMemberStatus after = client.resources(EtcdMember.class)
                .inNamespace(NS)
                .withName("demo-b")
                .get()
                .getStatus();
        assertThat(after.getIsVoter()).isTrue();
        assertThat(after.getPodName()).isEqualTo("demo-b");
    }

    @Test
    void aMissingObjectFailsWithNotFound() {
        assertThatThrownBy(() ->
                        MergePatch.of(client, EtcdMember::new, NS, "gone", Map.of("spec", Map.of("dormant", true))))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(404));
    }
}
