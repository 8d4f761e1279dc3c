package io.etcdoperator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.common.exception.CompactedException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore must not hand out revisions a watcher already saw (kubernetes#118501, etcd#16028). Real etcd: keys
 * written, snapshot saved by the agent, more keys written, the agent restores into a fresh data dir, etcd starts on it.
 */
class RevisionBumpIT {

    @TempDir
    Path tmp;

    @Test
    void etcdutlRestoreJumpsTheRevisionAndMarksTheGapCompacted() throws Exception {
        Revisions seen = saveThenWriteMore(EtcdRelease.V3_5_16);
        AgentRun restored = restore(EtcdRelease.V3_5_16, seen.restoredMember());
        assertThat(restored.exitCode()).as(restored.json()).isZero();
        assertThat(restored.field("revisionBump")).isEqualTo("1000000000");

        try (var etcd = EtcdServer.start(
                        EtcdRelease.V3_5_16, seen.restoredMember(), tmp.resolve("restored"), "new-token");
                var keys = new Keys(etcd.clientUrl())) {
            long revision = keys.revision();
            assertThat(revision)
                    .isGreaterThanOrEqualTo(seen.atSnapshot() + RestoreTool.REVISION_BUMP)
                    .isGreaterThan(seen.last());
            assertThat(keys.count("/before/")).isEqualTo(20);
            assertThat(keys.count("/after/")).as("written after the snapshot").isZero();
            Object answer = keys.watchFrom(seen.last()).get(20, TimeUnit.SECONDS);
            assertThat(answer)
                    .as("a watcher resuming from a revision the old cluster had")
                    .isInstanceOfSatisfying(
                            CompactedException.class,
                            e -> assertThat(e.getCompactedRevision())
                                    .isEqualTo(seen.atSnapshot() + RestoreTool.REVISION_BUMP));
        }
    }

    @Test
    void etcdctl34RestoreKeepsTheSnapshotsRevisionAndSaysSo() throws Exception {
        Revisions seen = saveThenWriteMore(EtcdRelease.V3_4_23);
        AgentRun restored = restore(EtcdRelease.V3_4_23, seen.restoredMember());
        assertThat(restored.exitCode()).as(restored.json()).isZero();
        assertThat(restored.field("revisionBump")).isEqualTo("0");

        try (var etcd = EtcdServer.start(
                        EtcdRelease.V3_4_23, seen.restoredMember(), tmp.resolve("restored"), "new-token");
                var keys = new Keys(etcd.clientUrl())) {
            assertThat(keys.revision())
                    .as("3.4 reuses the revisions written after the snapshot")
                    .isEqualTo(seen.atSnapshot())
                    .isLessThan(seen.last());
        }
    }

    record Revisions(long atSnapshot, long last, EtcdServer.Member restoredMember) {}

    private Revisions saveThenWriteMore(EtcdRelease release) {
        var source = EtcdServer.Member.reserve("source");
        try (var etcd = EtcdServer.start(release, source, tmp.resolve("source"), "old-token");
                var keys = new Keys(etcd.clientUrl())) {
            keys.fill("/before/", 20, 10);
            long atSnapshot = keys.revision();
            AgentRun saved = AgentRun.of(
                    Map.of(),
                    "snapshot",
                    "save",
                    "--endpoints",
                    etcd.clientUrl().toString(),
                    "--name",
                    "nightly",
                    "--uid",
                    "u1",
                    "--dir",
                    tmp.resolve("pvc").toString(),
                    "--termination-log",
                    tmp.resolve("no-log").toString());
            assertThat(saved.exitCode()).as(saved.json()).isZero();
            assertThat(saved.field("revision")).isEqualTo(Long.toString(atSnapshot));
            keys.fill("/after/", 30, 10);
            long last = keys.revision();
            assertThat(last).isEqualTo(atSnapshot + 30);
            return new Revisions(atSnapshot, last, EtcdServer.Member.reserve("restored"));
        }
    }

    private AgentRun restore(EtcdRelease release, EtcdServer.Member member) {
        return AgentRun.of(
                Map.of(),
                "snapshot",
                "restore",
                "--key",
                "nightly.db",
                "--dir",
                tmp.resolve("pvc").toString(),
                "--data-dir",
                tmp.resolve("restored").toString(),
                "--member-name",
                member.name(),
                "--initial-cluster",
                member.initialCluster(),
                "--initial-cluster-token",
                "new-token",
                "--initial-advertise-peer-urls",
                member.peerUrl().toString(),
                "--tool",
                release.restoreTool().toString(),
                "--termination-log",
                tmp.resolve("no-log").toString());
    }
}
