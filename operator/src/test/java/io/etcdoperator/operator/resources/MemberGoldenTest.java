package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdMember;
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
    Golden.assertMatches("pod-joining-full",
        MemberPods.build(member, "registry.internal/mirror/etcd:v3.5.16", true));
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
    Golden.assertMatches("pod-adopted-peer-auto-tls",
        MemberPods.build(Fixtures.member("member-adopted-peer-auto-tls"), IMAGE, true));
  }

  /** With the operator image known, etcd runs behind etcd-guard; a new Pod of a formed cluster's voter must find its data. */
  @Test
  void guardedVoter() {
    EtcdMember member = Fixtures.member("member-joining-full");
    member.setStatus(new io.etcdoperator.api.v1alpha2.EtcdMemberStatus());
    member.getStatus().setIsVoter(true);
    Golden.assertMatches("pod-voter-guarded", MemberPods.build(member, IMAGE, true,
        java.util.Optional.of(new AgentImage("ghcr.io/etcd-operator-java/etcd-operator:v0.1.0", null))));
  }

  @Test
  void theSeedsFirstPodExpectsNoData() {
    EtcdMember seed = Fixtures.member("member-seed-plain");
    seed.setStatus(new io.etcdoperator.api.v1alpha2.EtcdMemberStatus());
    seed.getStatus().setIsVoter(true);
    java.util.Optional<AgentImage> agent = java.util.Optional.of(new AgentImage("operator:dev", null));
    org.assertj.core.api.Assertions.assertThat(MemberPods.build(seed, IMAGE, false, agent).getSpec().getContainers()
        .getFirst().getCommand()).doesNotContain("--expect-data");
    org.assertj.core.api.Assertions.assertThat(MemberPods.build(seed, IMAGE, true, agent).getSpec().getContainers()
        .getFirst().getCommand()).contains("--expect-data");
  }

  @Test
  void dataPvc() {
    Golden.assertMatches("pvc-joining-full", MemberPvcs.build(Fixtures.member("member-joining-full")));
  }
}
