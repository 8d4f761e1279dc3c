package io.etcdoperator.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import io.etcdoperator.api.v1alpha2.StorageSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PodRevisionsTest {

    private static EtcdMember member(String resourceVersion, String version) {
        return member("u-1", resourceVersion, version);
    }

    private static EtcdMember member(String uid, String resourceVersion, String version) {
        EtcdMember m = new EtcdMember();
        m.setMetadata(new ObjectMetaBuilder()
                .withName("demo-a")
                .withNamespace("ns")
                .withUid(uid)
                .withResourceVersion(resourceVersion)
                .build());
        EtcdMemberSpec spec = new EtcdMemberSpec();
        spec.setClusterName("demo");
        spec.setVersion(version);
        spec.setInitialCluster("demo-a=http://demo-a.demo-headless.ns.svc:2380");
        spec.setClusterToken("t");
        StorageSpec storage = new StorageSpec();
        storage.setSize(new Quantity("1Gi"));
        spec.setStorage(storage);
        m.setSpec(spec);
        return m;
    }

    private static ObservedClusterSpec target(String version) {
        ObservedClusterSpec target = new ObservedClusterSpec();
        target.setVersion(version);
        target.setReplicas(3);
        StorageSpec storage = new StorageSpec();
        storage.setSize(new Quantity("1Gi"));
        target.setStorage(storage);
        return target;
    }

    private static String built(EtcdMember m, ObservedClusterSpec target) {
        return MemberPods.revision(EtcdMembers.retarget(m, target));
    }

    @Test
    void aRememberedRevisionIsTheOneTheTemplateBuildsForEveryInputThatChanges() {
        PodRevisions revisions = new PodRevisions();
        EtcdMember m = member("10", "3.5.16");
        assertThat(revisions.wanted(m, target("3.5.16"))).isEqualTo(built(m, target("3.5.16")));
        assertThat(revisions.wanted(m, target("3.5.16"))).isEqualTo(built(m, target("3.5.16")));
        assertThat(revisions.size()).as("asked twice, built once").isEqualTo(1);

        assertThat(revisions.wanted(m, target("3.5.17")))
                .as("a new target")
                .isEqualTo(built(m, target("3.5.17")))
                .isNotEqualTo(built(m, target("3.5.16")));

        EtcdMember stamped = TlsSecretVersions.stamped(m, Optional.of("own-server=7"));
        assertThat(revisions.wanted(stamped, target("3.5.16")))
                .as("new TLS Secret versions, same resourceVersion")
                .isEqualTo(built(stamped, target("3.5.16")))
                .isNotEqualTo(built(m, target("3.5.16")));

        EtcdMember edited = member("11", "3.5.16");
        edited.getMetadata().setAnnotations(Map.of("team", "a"));
        assertThat(revisions.wanted(edited, target("3.5.16")))
                .as("a new version of the member")
                .isEqualTo(built(edited, target("3.5.16")));
    }

    @Test
    void aMemberWithoutAVersionIsAlwaysBuiltAMemberHasOneEntryAndTheMemoryStartsOverWhenFull() {
        PodRevisions revisions = new PodRevisions();
        EtcdMember unsaved = member(null, "3.5.16");
        assertThat(revisions.wanted(unsaved, target("3.5.16"))).isEqualTo(built(unsaved, target("3.5.16")));
        assertThat(revisions.size()).isZero();
        for (int i = 0; i < 100; i++) {
            revisions.wanted(member(String.valueOf(i), "3.5.16"), target("3.5.16"));
        }
        assertThat(revisions.size())
                .as("one entry per member, whatever its versions")
                .isEqualTo(1);
        for (int i = 0; i <= PodRevisions.KEPT; i++) {
            revisions.wanted(member("u-" + i, "1", "3.5.16"), target("3.5.16"));
        }
        assertThat(revisions.size()).isLessThanOrEqualTo(PodRevisions.KEPT);
    }
}
