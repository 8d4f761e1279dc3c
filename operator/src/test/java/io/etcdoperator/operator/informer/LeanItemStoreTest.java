package io.etcdoperator.operator.informer;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LeanItemStoreTest {

    @Test
    void storesObjectsWithoutManagedFieldsAndKeepsEverythingElse() {
        var store = new LeanItemStore<Pod>();
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("m-1")
                .withAnnotations(Map.of("kubectl.kubernetes.io/last-applied-configuration", "{}"))
                .withManagedFields(new ManagedFieldsEntryBuilder()
                        .withManager("kubectl")
                        .withOperation("Apply")
                        .build())
                .endMetadata()
                .withNewSpec()
                .withNodeName("node-1")
                .endSpec()
                .build();

        store.put(store.getKey(pod), pod);

        Pod cached = store.get("ns/m-1");
        assertThat(cached.getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(cached.getMetadata().getAnnotations())
                .containsKey("kubectl.kubernetes.io/last-applied-configuration");
        assertThat(cached.getSpec().getNodeName()).isEqualTo("node-1");
        assertThat(store.size()).isEqualTo(1);
    }

    @Test
    void aMetadataOnlyStoreKeepsWhatMapsAnObjectToItsOwner() {
        var store = LeanItemStore.metadataOnly(Pod::new);
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("m-1")
                .withResourceVersion("7")
                .withLabels(Map.of("etcd-operator.cozystack.io/cluster", "c"))
                .withAnnotations(Map.of("big", "x".repeat(4096)))
                .addNewOwnerReference()
                .withKind("EtcdMember")
                .withName("m-1")
                .withUid("u-1")
                .withController(true)
                .endOwnerReference()
                .withManagedFields(
                        new ManagedFieldsEntryBuilder().withManager("kubelet").build())
                .endMetadata()
                .withNewSpec()
                .withNodeName("node-1")
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .endStatus()
                .build();

        store.put(store.getKey(pod), pod);

        Pod cached = store.get("ns/m-1");
        assertThat(cached.getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo("u-1"));
        assertThat(cached.getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(cached.getMetadata().getLabels()).containsEntry("etcd-operator.cozystack.io/cluster", "c");
        assertThat(cached.getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(cached.getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(pod.getMetadata().getAnnotations())
                .as("the object handed to the event handlers")
                .containsKey("big");
        assertThat(cached.getSpec()).isNull();
        assertThat(cached.getStatus()).isNull();
    }
}
