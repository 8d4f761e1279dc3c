package io.etcdoperator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import com.adobe.testing.s3mock.junit5.S3MockExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The whole path through the agent CLI against real etcd: N keys written, snapshot saved (S3Mock or a directory),
 * restored into a fresh data dir with the release's own tool, etcd started on it: every key and value is there and
 * the cluster ID is new. A second restore into the same directory does nothing.
 */
class SnapshotRoundTripIT {

    static final int KEYS = 1000;
    static final Map<String, String> ENV = Map.of("AWS_ACCESS_KEY_ID", "it", "AWS_SECRET_ACCESS_KEY", "it-secret");

    @RegisterExtension
    static final S3MockExtension S3 = S3MockExtension.builder()
            .silent()
            .withInitialBuckets(S3StoreIT.BUCKET)
            .withSecureConnection(false)
            .build();

    @TempDir
    Path tmp;

    static Stream<Arguments> cases() {
        return Stream.of(EtcdRelease.values()).flatMap(r -> Stream.of(Arguments.of(r, "s3"), Arguments.of(r, "dir")));
    }

    @ParameterizedTest(name = "{0} via {1}")
    @MethodSource("cases")
    void restoredMemberHasEveryKeyUnderANewClusterId(EtcdRelease release, String storeKind) throws Exception {
        var source = EtcdServer.Member.reserve("source");
        Map<String, String> written;
        long sourceClusterId;
        AgentRun saved;
        try (var etcd = EtcdServer.start(release, source, tmp.resolve("source"), "source-token");
                var keys = new Keys(etcd.clientUrl())) {
            keys.fill("/snap/", KEYS, 100);
            written = keys.read("/snap/");
            sourceClusterId = keys.clusterId();
            saved = AgentRun.of(
                    ENV,
                    concat(
                            new String[] {
                                "snapshot",
                                "save",
                                "--endpoints",
                                etcd.clientUrl().toString(),
                                "--name",
                                "nightly",
                                "--uid",
                                "uid-" + release.name(),
                                "--prefix",
                                "prod/" + release.name() + "/" + storeKind,
                                "--termination-log",
                                tmp.resolve("no-such-log").toString()
                            },
                            store(storeKind)));
        }
        assertThat(saved.exitCode()).as(saved.json()).isZero();
        assertThat(written).hasSize(KEYS);
        String key = "prod/" + release.name() + "/" + storeKind + "/nightly.db";
        byte[] stored = storedBytes(storeKind, key);
        assertThat(Long.parseLong(saved.field("sizeBytes"))).isEqualTo(stored.length);
        assertThat(saved.field("checksum")).isEqualTo("sha256:" + Sha256.of(stored));

        var restoredMember = EtcdServer.Member.reserve("restored");
        Path dataDir = tmp.resolve("restored");
        String[] restore = {
            "snapshot",
            "restore",
            "--key",
            key,
            "--data-dir",
            dataDir.toString(),
            "--member-name",
            restoredMember.name(),
            "--initial-cluster",
            restoredMember.initialCluster(),
            "--initial-cluster-token",
            "restored-token",
            "--initial-advertise-peer-urls",
            restoredMember.peerUrl().toString(),
            "--tool",
            release.restoreTool().toString(),
            "--termination-log",
            tmp.resolve("no-such-log").toString()
        };
        AgentRun restored = AgentRun.of(ENV, concat(restore, store(storeKind)));
        assertThat(restored.exitCode()).as(restored.json()).isZero();
        assertThat(restored.field("result")).isEqualTo("restored");
        assertThat(restored.field("verifiedAgainst")).isEqualTo("recorded");
        assertThat(restored.field("checksum")).isEqualTo(saved.field("checksum"));

        AgentRun again = AgentRun.of(ENV, concat(restore, store(storeKind)));
        assertThat(again.field("result")).as("a restarted init container").isEqualTo("skipped");

        try (var etcd = EtcdServer.start(release, restoredMember, dataDir, "restored-token");
                var keys = new Keys(etcd.clientUrl())) {
            Map<String, String> read = new TreeMap<>(keys.read("/snap/"));
            assertThat(read).hasSize(KEYS).isEqualTo(written);
            assertThat(read).containsEntry(Keys.key("/snap/", 7), Keys.value(7, 100));
            assertThat(keys.clusterId()).isNotEqualTo(sourceClusterId);
        }
    }

    private String[] store(String kind) {
        if (kind.equals("dir")) {
            return new String[] {"--dir", tmp.resolve("pvc").toString()};
        }
        return new String[] {
            "--s3-endpoint",
            S3.getServiceEndpoint(),
            "--s3-bucket",
            S3StoreIT.BUCKET,
            "--s3-force-path-style",
            "--s3-part-size-mib",
            "6"
        };
    }

    private byte[] storedBytes(String kind, String key) throws Exception {
        if (kind.equals("dir")) {
            return Files.readAllBytes(tmp.resolve("pvc").resolve(key));
        }
        try (S3Client s3 =
                S3StoreIT.settings(S3.getServiceEndpoint(), S3StoreIT.BUCKET).client()) {
            return s3.getObjectAsBytes(r -> r.bucket(S3StoreIT.BUCKET).key(key)).asByteArray();
        }
    }

    private static String[] concat(String[] first, String[] second) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(List.of(second));
        return all.toArray(String[]::new);
    }
}
