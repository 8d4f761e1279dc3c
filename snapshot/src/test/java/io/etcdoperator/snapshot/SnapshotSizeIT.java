package io.etcdoperator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import com.adobe.testing.s3mock.junit5.S3MockExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large database through S3 and back, with the agent in its own JVM capped at a 128 MiB heap: a snapshot held in
 * memory would fail. Size from -Dsnapshot.large.mib (50 by default, 1024 for the documented measurement); time and
 * peak RSS are printed and written to target/snapshot-size-&lt;MiB&gt;.txt.
 */
class SnapshotSizeIT {

    static final int VALUE_BYTES = 512 * 1024;
    static final String HEAP = "128m";
    static final Map<String, String> ENV = Map.of("AWS_ACCESS_KEY_ID", "it", "AWS_SECRET_ACCESS_KEY", "it-secret");

    @RegisterExtension
    static final S3MockExtension S3 = S3MockExtension.builder()
            .silent()
            .withInitialBuckets(S3StoreIT.BUCKET)
            .withSecureConnection(false)
            .build();

    @TempDir
    Path tmp;

    @Test
    void aLargeDatabaseStreamsThroughASmallHeap() throws Exception {
        int mib = Integer.getInteger("snapshot.large.mib", 50);
        int count = mib * 2;
        EtcdRelease release = EtcdRelease.V3_5_16;
        List<String> s3 = List.of(
                "--s3-endpoint",
                S3.getServiceEndpoint(),
                "--s3-bucket",
                S3StoreIT.BUCKET,
                "--s3-force-path-style",
                "--s3-part-size-mib",
                "6",
                "--termination-log",
                tmp.resolve("x").toString());

        var source = EtcdServer.Member.reserve("big");
        AgentProcess save;
        AgentProcess saveToDir;
        try (var etcd = EtcdServer.start(
                        release,
                        source,
                        tmp.resolve("big"),
                        "big-token",
                        "--quota-backend-bytes",
                        Long.toString(4L << 30));
                var keys = new Keys(etcd.clientUrl())) {
            long filling = System.nanoTime();
            keys.fill("/big/", count, VALUE_BYTES);
            System.out.printf("filled %d MiB in %.1f s%n", mib, (System.nanoTime() - filling) / 1e9);
            save = AgentProcess.run(
                    HEAP,
                    ENV,
                    concat(
                            List.of(
                                    "snapshot",
                                    "save",
                                    "--endpoints",
                                    etcd.clientUrl().toString(),
                                    "--name",
                                    "big",
                                    "--uid",
                                    "big-uid",
                                    "--dial-timeout",
                                    "PT30S"),
                            s3));
            saveToDir = AgentProcess.run(
                    HEAP,
                    ENV,
                    List.of(
                            "snapshot",
                            "save",
                            "--endpoints",
                            etcd.clientUrl().toString(),
                            "--name",
                            "big",
                            "--uid",
                            "big-uid",
                            "--dir",
                            tmp.resolve("pvc").toString(),
                            "--dial-timeout",
                            "PT30S",
                            "--termination-log",
                            tmp.resolve("x").toString()));
        }
        assertThat(saveToDir.exitCode()).as(saveToDir.output()).isZero();
        assertThat(save.exitCode()).as(save.output()).isZero();
        long size = Long.parseLong(new AgentRun(0, save.json()).field("sizeBytes"));
        assertThat(size).isGreaterThan((long) mib << 20);

        var member = EtcdServer.Member.reserve("big-restored");
        Path dataDir = tmp.resolve("big-restored");
        AgentProcess restore = AgentProcess.run(
                HEAP,
                ENV,
                concat(
                        List.of(
                                "snapshot",
                                "restore",
                                "--key",
                                "big.db",
                                "--data-dir",
                                dataDir.toString(),
                                "--member-name",
                                member.name(),
                                "--initial-cluster",
                                member.initialCluster(),
                                "--initial-cluster-token",
                                "restored",
                                "--initial-advertise-peer-urls",
                                member.peerUrl().toString(),
                                "--tool",
                                release.restoreTool().toString()),
                        s3));
        assertThat(restore.exitCode()).as(restore.output()).isZero();

        try (var etcd = EtcdServer.start(
                        release, member, dataDir, "restored", "--quota-backend-bytes", Long.toString(4L << 30));
                var keys = new Keys(etcd.clientUrl())) {
            assertThat(keys.count("/big/")).isEqualTo(count);
            assertThat(keys.read(Keys.key("/big/", count - 1)))
                    .containsExactly(Map.entry(Keys.key("/big/", count - 1), Keys.value(count - 1, VALUE_BYTES)));
        }
        String report = String.format(
                "snapshot of %d MiB of values: db %d bytes; agent -Xmx%s%n"
                        + "  save    (etcd -> S3Mock, 6 MiB parts): %6.1f s, peak RSS %4d MiB%n"
                        + "  save    (etcd -> directory):           %6.1f s, peak RSS %4d MiB%n"
                        + "  restore (S3Mock -> etcdutl -> data dir): %6.1f s, peak RSS %4d MiB (agent JVM; etcdutl not counted)%n",
                mib,
                size,
                HEAP,
                save.elapsed().toMillis() / 1000.0,
                save.peakRssBytes() >> 20,
                saveToDir.elapsed().toMillis() / 1000.0,
                saveToDir.peakRssBytes() >> 20,
                restore.elapsed().toMillis() / 1000.0,
                restore.peakRssBytes() >> 20);
        System.out.print(report);
        Files.writeString(Path.of("target", "snapshot-size-" + mib + ".txt"), report);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        var all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
