package io.etcdoperator.operator.informer;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.cluster.EtcdClusterReconciler;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import org.junit.jupiter.api.Test;

class PrimaryCopiesTest {

    private final PrimaryCopies copies = new PrimaryCopies();

    @Test
    void anEtcdClusterIsHandedOverUncopied() {
        EtcdCluster cluster = new EtcdCluster();
        cluster.setMetadata(
                new ObjectMetaBuilder().withName("c").withNamespace("ns").build());
        assertThat(copies.clone(cluster)).isSameAs(cluster);
    }

    @Test
    void theClusterReconcilerNeverFinalizesThroughJosdk() {
        assertThat(Cleaner.class.isAssignableFrom(EtcdClusterReconciler.class))
                .as("a Cleaner would make JOSDK patch the uncopied cached EtcdCluster")
                .isFalse();
    }

    @Test
    void everyOtherPrimaryIsCopied() {
        EtcdMember member = new EtcdMember();
        member.setMetadata(new ObjectMetaBuilder()
                .withName("c-1")
                .withNamespace("ns")
                .addToLabels("a", "b")
                .build());
        EtcdMember copy = copies.clone(member);
        assertThat(copy).isNotSameAs(member).isEqualTo(member);
        copy.getMetadata().getLabels().put("x", "y");
        assertThat(member.getMetadata().getLabels()).containsOnlyKeys("a");
    }
}
