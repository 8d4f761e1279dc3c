package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberStatus;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A member's Pod is the one it owns: labels edited away neither lose it nor let a foreign Pod stand in for it. */
class MemberPodIdentityTest {

    private static EtcdMember member(String name, String uid, boolean ranPod) {
        EtcdMember m = new EtcdMember();
        m.getMetadata().setName(name);
        m.getMetadata().setUid(uid);
        if (ranPod) {
            EtcdMemberStatus status = new EtcdMemberStatus();
            status.setPodName(name);
            m.setStatus(status);
        }
        return m;
    }

    private static Pod pod(String name, String ownerUid) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withUid(name + "-pod")
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withKind("EtcdMember")
                        .withName(name)
                        .withUid(ownerUid)
                        .withController(true)
                        .build())
                .endMetadata()
                .build();
    }

    @Test
    void aPodWhoseLabelsWereEditedAwayIsStillItsMembers() {
        List<String> asked = new ArrayList<>();
        Pod unlabelled = pod("b", "uid-b");
        Map<String, Pod> found = MemberPodIdentity.byOwner(
                List.of(member("a", "uid-a", true), member("b", "uid-b", true)),
                Map.of("a", pod("a", "uid-a")),
                name -> {
                    asked.add(name);
                    return "b".equals(name) ? unlabelled : null;
                });
        assertThat(found).containsOnlyKeys("a", "b");
        assertThat(found.get("b")).isSameAs(unlabelled);
        assertThat(asked).containsExactly("b"); // the labelled list answered for a: no extra read
    }

    @Test
    void aPodOfTheSameNameOwnedBySomethingElseIsNotTheMembers() {
        Map<String, Pod> found = MemberPodIdentity.byOwner(
                List.of(member("a", "uid-a", true)),
                Map.of("a", pod("a", "uid-of-an-earlier-member")),
                name -> pod(name, "someone-else"));
        assertThat(found).isEmpty();
    }

    @Test
    void aMemberThatNeverRanAPodCostsNoRead() {
        List<String> asked = new ArrayList<>();
        Map<String, Pod> found = MemberPodIdentity.byOwner(List.of(member("a", "uid-a", false)), Map.of(), name -> {
            asked.add(name);
            return null;
        });
        assertThat(found).isEmpty();
        assertThat(asked).isEmpty();
    }
}
