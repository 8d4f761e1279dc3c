package io.etcdoperator.operator.reads;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdDefrag;
import io.etcdoperator.api.v1alpha2.EtcdDefragStatus;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CachedDefragsTest {

    /** Answers every read with {@code defrags} (or nothing) and counts the reads it was asked for. */
    static final class Counted implements KubeReads {
        final List<EtcdDefrag> defrags;
        final List<String> asked = new ArrayList<>();

        Counted(List<EtcdDefrag> defrags) {
            this.defrags = defrags;
        }

        @Override
        public Optional<EtcdCluster> cluster(String namespace, String name) {
            asked.add("cluster");
            return Optional.empty();
        }

        @Override
        public List<EtcdMember> members(String namespace, String cluster) {
            asked.add("members");
            return List.of();
        }

        @Override
        public List<Pod> pods(String namespace, String cluster) {
            asked.add("pods");
            return List.of();
        }

        @Override
        public Optional<Pod> pod(String namespace, String name) {
            asked.add("pod");
            return Optional.empty();
        }

        @Override
        public List<PersistentVolumeClaim> volumes(String namespace, String cluster) {
            asked.add("volumes");
            return List.of();
        }

        @Override
        public Optional<PersistentVolumeClaim> volume(String namespace, String name) {
            asked.add("volume");
            return Optional.empty();
        }

        @Override
        public List<EtcdDefrag> defrags(String namespace) {
            asked.add("defrags");
            return defrags;
        }
    }

    private static EtcdDefrag run(String name, String phase, boolean deleting) {
        EtcdDefrag d = new EtcdDefrag();
        d.setMetadata(new ObjectMetaBuilder()
                .withName(name)
                .withNamespace("ns")
                .withDeletionTimestamp(deleting ? "2026-12-07T00:00:00Z" : null)
                .build());
        if (phase != null) {
            EtcdDefragStatus status = new EtcdDefragStatus();
            status.setPhase(phase);
            d.setStatus(status);
        }
        return d;
    }

    @Test
    void noRunInTheCacheSendsNoList() {
        Counted api = new Counted(List.of(run("new", null, false)));
        Counted cache = new Counted(List.of());

        assertThat(new CachedDefrags(api, cache).defrags("ns")).isEmpty();
        assertThat(api.asked).isEmpty();
    }

    @Test
    void finishedOrDeletedRunsInTheCacheSendNoList() {
        List<EtcdDefrag> cached = List.of(
                run("done", EtcdDefragStatus.PHASE_COMPLETE, false),
                run("failed", EtcdDefragStatus.PHASE_FAILED, false),
                run("going", EtcdDefragStatus.PHASE_RUNNING, true));
        Counted api = new Counted(List.of());

        assertThat(new CachedDefrags(api, new Counted(cached)).defrags("ns")).isEqualTo(cached);
        assertThat(api.asked).isEmpty();
    }

    @Test
    void anUnfinishedRunInTheCacheIsReadFromTheApiServer() {
        for (String phase : new String[] {null, EtcdDefragStatus.PHASE_PENDING, EtcdDefragStatus.PHASE_RUNNING}) {
            List<EtcdDefrag> fresh = List.of(run("r", EtcdDefragStatus.PHASE_RUNNING, false));
            Counted api = new Counted(fresh);
            Counted cache = new Counted(List.of(run("r", phase, false)));

            assertThat(new CachedDefrags(api, cache).defrags("ns")).isSameAs(fresh);
            assertThat(api.asked).containsExactly("defrags");
        }
    }

    @Test
    void everyOtherReadGoesToTheApiServer() {
        Counted api = new Counted(List.of());
        Counted cache = new Counted(List.of());
        KubeReads reads = new CachedDefrags(api, cache);

        reads.cluster("ns", "c");
        reads.members("ns", "c");
        reads.pods("ns", "c");
        reads.pod("ns", "p");
        reads.volumes("ns", "c");
        reads.volume("ns", "v");

        assertThat(api.asked).containsExactly("cluster", "members", "pods", "pod", "volumes", "volume");
        assertThat(cache.asked).isEmpty();
    }
}
