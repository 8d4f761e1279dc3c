package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.etcdoperator.api.v1alpha2.StorageSpec;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Whether ForceNewCluster's second write (the restart, or asking the guard) happened after its mark. */
class RecoveryCarriedOutTest {

    private static EtcdMember marked(String value, boolean memory) {
        EtcdMember m = new EtcdMember();
        m.getMetadata().setName("a");
        m.getMetadata().setAnnotations(Map.of("etcd-operator.cozystack.io/force-new-cluster", value));
        EtcdMemberSpec spec = new EtcdMemberSpec();
        if (memory) {
            StorageSpec storage = new StorageSpec();
            storage.setMedium("Memory");
            spec.setStorage(storage);
        }
        m.setSpec(spec);
        return m;
    }

    private static Pod pod(String created, Map<String, String> annotations) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("a")
                .withCreationTimestamp(created)
                .withAnnotations(annotations)
                .endMetadata()
                .build();
    }

    @Test
    void aPvcSurvivorsPodFromBeforeTheMarkWasNotRestarted() {
        EtcdMember a = marked("2026-11-27T07:00:00.250Z", false);
        assertThat(RecoveryRequest.carriedOut(a, pod("2026-11-27T06:59:00Z", Map.of())))
                .isFalse();
        assertThat(RecoveryRequest.carriedOut(a, pod("2026-11-27T07:00:01Z", Map.of())))
                .isTrue();
        assertThat(RecoveryRequest.carriedOut(a, null))
                .as("deleted, being made anew")
                .isTrue();
        assertThat(RecoveryRequest.carriedOut(marked("true", false), pod("2026-11-27T06:59:00Z", Map.of())))
                .as("an older operator's mark")
                .isTrue();
    }

    @Test
    void aMemorySurvivorsGuardWasAskedOnlyWithTheAnnotationOnItsPod() {
        EtcdMember a = marked("2026-11-27T07:00:00Z", true);
        assertThat(RecoveryRequest.carriedOut(a, pod("2026-11-27T06:00:00Z", Map.of())))
                .isFalse();
        assertThat(RecoveryRequest.carriedOut(
                        a,
                        pod(
                                "2026-11-27T06:00:00Z",
                                Map.of("etcd-operator.cozystack.io/force-new-cluster", "2026-11-27T07:00:00Z"))))
                .isTrue();
    }
}
