package io.etcdoperator.operator.reads;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

/**
 * The builders' copies are what the JSON round trip gave: equal, and no map, list or nested object shared (Quantity
 * values are: a pass replaces them, as below, and never sets into one).
 */
class InformerReadsCopyTest {

    private final KubernetesSerialization json = new KubernetesSerialization();

    private static Pod pod() {
        return new PodBuilder()
                .withNewMetadata()
                .withName("c-1")
                .withNamespace("ns")
                .withResourceVersion("42")
                .addToLabels("etcd-operator.cozystack.io/cluster", "c")
                .addToAnnotations("etcd-operator.cozystack.io/revision", "abc")
                .addNewOwnerReference()
                .withKind("EtcdMember")
                .withName("c-1")
                .withUid("u")
                .endOwnerReference()
                .endMetadata()
                .withNewSpec()
                .withNodeName("node-1")
                .addNewContainer()
                .withName("etcd")
                .withImage("etcd:3.5.16")
                .withArgs("--name=c-1")
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .endCondition()
                .addNewContainerStatus()
                .withName("etcd")
                .withRestartCount(2)
                .withReady(true)
                .endContainerStatus()
                .endStatus()
                .build();
    }

    @Test
    void aPodCopyEqualsTheJsonCopyAndSharesNothingAPassChanges() {
        Pod cached = pod();
        Pod before = json.clone(cached);

        Pod copy = InformerReads.copy(cached);

        assertThat(copy).isEqualTo(json.clone(cached)).isNotSameAs(cached);
        copy.getMetadata().getLabels().put("x", "y");
        copy.getMetadata().getAnnotations().remove("etcd-operator.cozystack.io/revision");
        copy.getMetadata().getOwnerReferences().getFirst().setName("other");
        copy.getSpec().getContainers().getFirst().getArgs().add("--more");
        copy.getSpec().getContainers().getFirst().setImage("etcd:3.6.0");
        copy.getStatus().getConditions().getFirst().setStatus("False");
        copy.getStatus().getContainerStatuses().getFirst().setRestartCount(3);
        copy.getStatus().setPhase("Failed");
        assertThat(cached).isEqualTo(before);
    }

    @Test
    void aClaimCopyEqualsTheJsonCopyAndSharesNothingAPassChanges() {
        PersistentVolumeClaim cached = new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName("data-c-1")
                .addToLabels("etcd-operator.cozystack.io/cluster", "c")
                .endMetadata()
                .withNewSpec()
                .withAccessModes("ReadWriteOnce")
                .withNewResources()
                .addToRequests("storage", new Quantity("1Gi"))
                .endResources()
                .endSpec()
                .withNewStatus()
                .withPhase("Bound")
                .addToCapacity("storage", new Quantity("1Gi"))
                .endStatus()
                .build();
        PersistentVolumeClaim before = json.clone(cached);

        PersistentVolumeClaim copy = InformerReads.copy(cached);

        assertThat(copy).isEqualTo(json.clone(cached));
        copy.getSpec().getResources().getRequests().put("storage", new Quantity("2Gi"));
        copy.getStatus().getCapacity().put("storage", new Quantity("2Gi"));
        copy.getMetadata().getLabels().clear();
        assertThat(cached).isEqualTo(before);
    }
}
