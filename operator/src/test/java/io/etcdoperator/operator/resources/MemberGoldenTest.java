package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberStatus;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Member Pods and PVCs, rendered from fixed EtcdMembers and compared with reviewed YAML. */
class MemberGoldenTest {

    private static final String IMAGE = "quay.io/coreos/etcd:v3.5.16";

    @Test
    void plaintextSeedOfANewCluster() {
        Golden.assertMatches("pod-seed-plain", MemberPods.build(Fixtures.member("member-seed-plain"), IMAGE, false));
    }

    @Test
    void joiningMemberWithEveryPassThrough() {
        EtcdMember member = Fixtures.member("member-joining-full");
        Golden.assertMatches(
                "pod-joining-full", MemberPods.build(member, "registry.internal/mirror/etcd:v3.5.16", true));
    }

    @Test
    void memoryMember() {
        Golden.assertMatches("pod-memory", MemberPods.build(Fixtures.member("member-memory"), IMAGE, true));
    }

    @Test
    void clientMtlsAndPeerTls() {
        Golden.assertMatches("pod-mtls", MemberPods.build(Fixtures.member("member-mtls"), IMAGE, false));
    }

    @Test
    void adoptedMemberWithPeerAutoTls() {
        Golden.assertMatches(
                "pod-adopted-peer-auto-tls",
                MemberPods.build(Fixtures.member("member-adopted-peer-auto-tls"), IMAGE, true));
    }

    /** With the operator image known, etcd runs behind etcd-guard; a new Pod of a formed cluster's voter must find its data. */
    @Test
    void guardedVoter() {
        EtcdMember member = Fixtures.member("member-joining-full");
        member.setStatus(new EtcdMemberStatus());
        member.getStatus().setIsVoter(true);
        Golden.assertMatches(
                "pod-voter-guarded",
                MemberPods.build(
                        member,
                        IMAGE,
                        true,
                        Optional.of(new AgentImage("ghcr.io/etcd-operator-java/etcd-operator:v0.1.0", null))));
    }

    /**
     * A guarded memory member also sees its Pod's annotations, where a quorum recovery asks its guard for
     * --force-new-cluster in place; the request never reaches the args, so it never rolls the Pod (and its tmpfs).
     */
    @Test
    void guardedMemoryMemberRecoversInPlace() {
        EtcdMember member = Fixtures.member("member-memory");
        Optional<AgentImage> agent = Optional.of(new AgentImage("operator:dev", null));
        Pod pod = MemberPods.build(member, IMAGE, true, agent);
        Golden.assertMatches("pod-memory-guarded", pod);
        org.assertj.core.api.Assertions.assertThat(EtcdGuard.restartsInPlace(pod))
                .isTrue();
        String revision = MemberPods.revision(member);
        member.getMetadata()
                .setAnnotations(new HashMap<>(Map.of(EtcdOperatorApi.ANNOTATION_FORCE_NEW_CLUSTER, "true")));
        org.assertj.core.api.Assertions.assertThat(MemberPods.build(member, IMAGE, true, agent)
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getArgs())
                .doesNotContain("--force-new-cluster");
        org.assertj.core.api.Assertions.assertThat(MemberPods.revision(member)).isEqualTo(revision);
        org.assertj.core.api.Assertions.assertThat(EtcdGuard.restartsInPlace(
                        MemberPods.build(Fixtures.member("member-joining-full"), IMAGE, true, agent)))
                .isFalse();
    }

    @Test
    void theSeedsFirstPodExpectsNoData() {
        EtcdMember seed = Fixtures.member("member-seed-plain");
        seed.setStatus(new EtcdMemberStatus());
        seed.getStatus().setIsVoter(true);
        Optional<AgentImage> agent = Optional.of(new AgentImage("operator:dev", null));
        org.assertj.core.api.Assertions.assertThat(MemberPods.build(seed, IMAGE, false, agent)
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getCommand())
                .doesNotContain("--expect-data");
        org.assertj.core.api.Assertions.assertThat(MemberPods.build(seed, IMAGE, true, agent)
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getCommand())
                .contains("--expect-data");
    }

    @Test
    void dataPvc() {
        Golden.assertMatches("pvc-joining-full", MemberPvcs.build(Fixtures.member("member-joining-full")));
    }
}
