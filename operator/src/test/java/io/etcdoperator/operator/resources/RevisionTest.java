package io.etcdoperator.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** A member Pod's revision moves only with what etcd runs with; an operator upgrade alone restarts no member. */
class RevisionTest {

    private static final String IMAGE = "quay.io/coreos/etcd:v3.5.16";
    private static final AgentImage OPERATOR = new AgentImage("ghcr.io/etcd-operator-java/etcd-operator:v0.1.0", null);

    private static EtcdMember member() {
        return Fixtures.member("member-joining-full");
    }

    private static Pod pod() {
        return MemberPods.build(member(), IMAGE, true, Optional.of(OPERATOR));
    }

    private static String revision(Pod pod) {
        return Revision.ofMemberPod(pod, MemberPods.CONTAINER, MemberPods.operatorLabels(member()));
    }

    private static String revisionAfter(Consumer<Pod> change) {
        Pod pod = new PodBuilder(pod()).build();
        change.accept(pod);
        return revision(pod);
    }

    private static Container etcd(Pod pod) {
        return pod.getSpec().getContainers().getFirst();
    }

    private static Container guard(Pod pod) {
        return pod.getSpec().getInitContainers().getFirst();
    }

    @Test
    void theSameInputGivesTheSameRevision() {
        assertThat(revision(pod())).isEqualTo(revision(pod()));
    }

    @Test
    void anOperatorUpgradeThatOnlyRendersDecorationsDifferentlyKeepsTheRevision() {
        String before = revision(pod());
        assertThat(revisionAfter(p -> etcd(p).getLivenessProbe().setPeriodSeconds(30)))
                .isEqualTo(before);
        assertThat(revisionAfter(p -> etcd(p).getReadinessProbe().getHttpGet().setPath("/readyz")))
                .isEqualTo(before);
        assertThat(revisionAfter(p -> etcd(p).setStartupProbe(null))).isEqualTo(before);
        assertThat(revisionAfter(p -> guard(p).setImage("ghcr.io/etcd-operator-java/etcd-operator:v0.2.0")))
                .isEqualTo(before);
        assertThat(revisionAfter(p -> guard(p).getResources().getLimits().put("memory", new Quantity("64Mi"))))
                .isEqualTo(before);
        assertThat(revisionAfter(p -> etcd(p).getSecurityContext().setReadOnlyRootFilesystem(true)))
                .isEqualTo(before);
        assertThat(revisionAfter(p -> p.getSpec().getSecurityContext().setRunAsUser(1000L)))
                .isEqualTo(before);
        assertThat(revisionAfter(p -> p.getMetadata().getLabels().put(Labels.MANAGED_BY, "etcd-operator-v2")))
                .isEqualTo(before);
    }

    @Test
    void aNewOperatorImageBuildsAPodWithTheSameRevision() {
        Pod upgraded = MemberPods.build(
                member(),
                IMAGE,
                true,
                Optional.of(new AgentImage("ghcr.io/etcd-operator-java/etcd-operator:v0.2.0", null)));
        assertThat(guard(upgraded).getImage()).isNotEqualTo(guard(pod()).getImage());
        assertThat(revision(upgraded)).isEqualTo(revision(pod()));
    }

    @Test
    void whatEtcdRunsWithChangesTheRevision() {
        String before = revision(pod());
        assertThat(revisionAfter(p -> etcd(p).setImage("quay.io/coreos/etcd:v3.5.17")))
                .isNotEqualTo(before);
        assertThat(revisionAfter(p -> etcd(p).getArgs().add("--snapshot-count=5000")))
                .isNotEqualTo(before);
        assertThat(revisionAfter(p -> etcd(p).getCommand().add("--verbose"))).isNotEqualTo(before);
        assertThat(revisionAfter(p -> etcd(p).setEnv(List.of(new EnvVar("GOMAXPROCS", "2", null)))))
                .isNotEqualTo(before);
        assertThat(revisionAfter(p -> etcd(p).setResources(new ResourceRequirementsBuilder()
                        .addToRequests("cpu", new Quantity("1"))
                        .build())))
                .isNotEqualTo(before);
        assertThat(revisionAfter(p -> etcd(p).getVolumeMounts()
                        .add(new VolumeMountBuilder()
                                .withName("extra")
                                .withMountPath("/extra")
                                .build())))
                .isNotEqualTo(before);
        assertThat(revisionAfter(p -> p.getSpec()
                        .getVolumes()
                        .getFirst()
                        .getPersistentVolumeClaim()
                        .setClaimName("other")))
                .isNotEqualTo(before);
        assertThat(revisionAfter(p -> p.getSpec().setTopologySpreadConstraints(List.of())))
                .isNotEqualTo(before);
        assertThat(revisionAfter(p -> p.getMetadata().getLabels().put("team", "storage")))
                .isNotEqualTo(before);
        assertThat(revisionAfter(p -> p.getMetadata().getAnnotations().put("owner", "dba@example.test")))
                .isNotEqualTo(before);
    }

    @Test
    void aChangedMemberSpecChangesTheMembersRevision() {
        String before = MemberPods.revision(member());
        EtcdMember newer = member();
        newer.getSpec().setVersion("3.5.17");
        assertThat(MemberPods.revision(newer)).isNotEqualTo(before);
        EtcdMember option = member();
        option.getSpec().getOptions().setSnapshotCount(5000L);
        assertThat(MemberPods.revision(option)).isNotEqualTo(before);
        EtcdMember resources = member();
        resources.getSpec().getResources().getLimits().put("memory", new Quantity("4Gi"));
        assertThat(MemberPods.revision(resources)).isNotEqualTo(before);
    }

    /** A voter's role label and the guard's --expect-data follow the member, not what it runs: no roll on promotion. */
    @Test
    void aPromotionKeepsTheMembersRevision() {
        EtcdMember voter = member();
        voter.getStatus().setIsVoter(true);
        assertThat(MemberPods.revision(voter)).isEqualTo(MemberPods.revision(member()));
    }
}
