package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOptions;
import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import io.etcdoperator.operator.reason.RestartReason;
import io.etcdoperator.operator.resources.Fixtures;
import io.etcdoperator.operator.resources.MemberPods;
import io.etcdoperator.operator.resources.PodRevisions;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Why a member's Pod is not what the latched target builds: the facts the roller acts on. */
class OutdatedTest {

    private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");

    private static ObservedClusterSpec targetOf(EtcdMember m) {
        ObservedClusterSpec t = new ObservedClusterSpec();
        t.setReplicas(3);
        t.setVersion(m.getSpec().getVersion());
        t.setStorage(m.getSpec().getStorage());
        t.setResources(m.getSpec().getResources());
        t.setAdditionalMetadata(m.getSpec().getAdditionalMetadata());
        t.setAffinity(m.getSpec().getAffinity());
        t.setTopologySpreadConstraints(m.getSpec().getTopologySpreadConstraints());
        t.setOptions(m.getSpec().getOptions());
        t.setImagePullSecrets(m.getSpec().getImagePullSecrets());
        return t;
    }

    private static Pod podOf(EtcdMember m, String created) {
        Pod pod = MemberPods.build(m, "quay.io/coreos/etcd:v" + m.getSpec().getVersion(), true);
        pod.getMetadata().setCreationTimestamp(created);
        return pod;
    }

    @Test
    void aPodBuiltFromTheTargetIsUpToDate() {
        EtcdMember m = Fixtures.member("member-seed-plain");
        assertThat(outdated(m, podOf(m, "2026-11-24T11:00:00Z"), targetOf(m), Optional.empty()))
                .isEmpty();
    }

    @Test
    void aNewVersionIsVersionChangedAndAnyOtherTemplateChangeIsSpecChanged() {
        EtcdMember m = Fixtures.member("member-seed-plain");
        Pod pod = podOf(m, "2026-11-24T11:00:00Z");
        ObservedClusterSpec newer = targetOf(m);
        newer.setVersion("3.5.30");
        assertThat(outdated(m, pod, newer, Optional.empty())).contains(RestartReason.VERSION_CHANGED);
        ObservedClusterSpec options = targetOf(m);
        var o = new EtcdOptions();
        o.setSnapshotCount(5000L);
        options.setOptions(o);
        assertThat(outdated(m, pod, options, Optional.empty())).contains(RestartReason.SPEC_CHANGED);
    }

    @Test
    void restartAtRollsPodsStartedBeforeItOnceItPassed() {
        EtcdMember m = Fixtures.member("member-seed-plain");
        Pod older = podOf(m, "2026-11-24T11:00:00Z");
        Pod newer = podOf(m, "2026-11-24T11:45:00Z");
        Optional<Instant> at = Optional.of(Instant.parse("2026-11-24T11:30:00Z"));
        assertThat(outdated(m, older, targetOf(m), at)).contains(RestartReason.RESTART_REQUESTED);
        assertThat(outdated(m, newer, targetOf(m), at)).isEmpty();
        Optional<Instant> future = Optional.of(NOW.plusSeconds(60));
        assertThat(outdated(m, older, targetOf(m), future)).isEmpty();
    }

    @Test
    void anUnreadableRestartAtIsIgnored() {
        EtcdCluster c = new EtcdCluster();
        c.getMetadata().setName("demo");
        c.getMetadata().setAnnotations(Map.of("etcd-operator.cozystack.io/restart-at", "tomorrow"));
        assertThat(ClusterObserver.restartAt(c)).isEmpty();
        c.getMetadata().setAnnotations(Map.of("etcd-operator.cozystack.io/restart-at", "2026-11-24T11:30:00Z"));
        assertThat(ClusterObserver.restartAt(c)).contains(Instant.parse("2026-11-24T11:30:00Z"));
    }

    @Test
    void aFormedPvcSeedStillStartingNewRestartsOnceWithExisting() {
        EtcdMember seed = Fixtures.member("member-seed-plain");
        Pod firstStart =
                MemberPods.build(seed, "quay.io/coreos/etcd:v" + seed.getSpec().getVersion(), false);
        Pod rebuilt =
                MemberPods.build(seed, "quay.io/coreos/etcd:v" + seed.getSpec().getVersion(), true);
        assertThat(seedStartsNew(seed, firstStart, true)).contains(RestartReason.CLUSTER_FORMED);
        assertThat(seedStartsNew(seed, firstStart, false)).as("not formed yet").isEmpty();
        assertThat(seedStartsNew(seed, rebuilt, true)).isEmpty();
    }

    private static Optional<RestartReason> outdated(
            EtcdMember m, Pod pod, ObservedClusterSpec target, Optional<Instant> restartAt) {
        return MemberObservations.outdated(m, pod, target, restartAt, NOW, new PodRevisions(), false);
    }

    /** Only the seed's judgement: no target latched to compare the Pod with. */
    static Optional<RestartReason> seedStartsNew(EtcdMember m, Pod pod, boolean formed) {
        return MemberObservations.outdated(m, pod, null, Optional.empty(), NOW, new PodRevisions(), formed);
    }
}
