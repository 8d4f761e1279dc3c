package io.etcdoperator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import com.adobe.testing.s3mock.junit5.S3MockExtension;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Encrypted snapshots through the agent CLI against real etcd 3.5: the stored object is unreadable without the key,
 * a restore with the Secret holding that key id brings every key back, and a missing or wrong key fails creating
 * nothing. Also: the S3 server-side encryption headers are on the writes.
 */
class EncryptedSnapshotIT {

    static final Map<String, String> ENV = Map.of("AWS_ACCESS_KEY_ID", "it", "AWS_SECRET_ACCESS_KEY", "it-secret");
    static final EtcdRelease RELEASE = EtcdRelease.V3_5_16;

    @RegisterExtension
    static final S3MockExtension S3 = S3MockExtension.builder()
            .silent()
            .withInitialBuckets(S3StoreIT.BUCKET)
            .withSecureConnection(false)
            .build();

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "via {0}")
    @ValueSource(strings = {"dir", "s3"})
    void anEncryptedSnapshotRestoresOnlyWithItsKey(String storeKind) throws Exception {
        Path keys = secret("keys", Map.of("2024-12", key(1), "2025-01", key(2)));
        Map<String, String> written;
        try (var etcd = EtcdServer.start(RELEASE, EtcdServer.Member.reserve("source"), tmp.resolve("source"), "old");
                var kv = new Keys(etcd.clientUrl())) {
            kv.fill("/registry/secrets/", 200, 100);
            written = kv.read("/registry/secrets/");
            AgentRun saved = agent(
                    storeKind,
                    "snapshot",
                    "save",
                    "--endpoints",
                    etcd.clientUrl().toString(),
                    "--name",
                    "nightly",
                    "--uid",
                    "u1",
                    "--encryption-key-dir",
                    keys.toString(),
                    "--encryption-key-id",
                    "2025-01");
            assertThat(saved.exitCode()).as(saved.json()).isZero();
            assertThat(saved.field("encryptionKeyId")).isEqualTo("2025-01");
            byte[] stored = storedBytes(storeKind, "nightly.db");
            assertThat(saved.field("checksum")).isEqualTo("sha256:" + Sha256.of(stored));
            String raw = new String(stored, StandardCharsets.ISO_8859_1);
            assertThat(raw).startsWith("ETCDSNE1").doesNotContain("/registry/").doesNotContain("value-1");
            assertThat(raw)
                    .as("bbolt's magic 0xED0CDAED")
                    .doesNotContain(new String(
                            new byte[] {(byte) 0xed, (byte) 0xda, 0x0c, (byte) 0xed}, StandardCharsets.ISO_8859_1));
        }

        AgentRun noKey = restore(storeKind, "a", secret("other", Map.of("2024-12", key(1))));
        assertThat(noKey.exitCode()).isEqualTo(1);
        assertThat(noKey.field("reason")).isEqualTo("EncryptionKeyMissing");
        assertThat(noKey.field("message")).contains("'2025-01'");
        assertThat(tmp.resolve("a")).isEmptyDirectory();

        AgentRun wrongKey = restore(storeKind, "b", secret("wrong", Map.of("2025-01", key(3))));
        assertThat(wrongKey.field("reason")).isEqualTo("DecryptionFailed");
        assertThat(wrongKey.json()).doesNotContain(Base64.getEncoder().encodeToString(key(3)));
        assertThat(tmp.resolve("b")).isEmptyDirectory();

        var member = EtcdServer.Member.reserve("restored");
        AgentRun restored = restore(storeKind, "c", keys, member);
        assertThat(restored.exitCode()).as(restored.json()).isZero();
        assertThat(restored.field("encryptionKeyId")).isEqualTo("2025-01");
        try (var etcd = EtcdServer.start(RELEASE, member, tmp.resolve("c"), "new");
                var kv = new Keys(etcd.clientUrl())) {
            assertThat(kv.read("/registry/secrets/")).isEqualTo(written);
        }
    }

    @Test
    void writesCarryTheServerSideEncryptionHeaders() {
        List<Map<String, List<String>>> sent = new CopyOnWriteArrayList<>();
        ExecutionInterceptor capture = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if (context.httpRequest().method().name().matches("POST|PUT")) {
                    sent.add(context.httpRequest().headers());
                }
            }
        };
        try (S3Client s3 = S3Client.builder()
                        .endpointOverride(URI.create(S3.getServiceEndpoint()))
                        .region(Region.US_EAST_1)
                        .forcePathStyle(true)
                        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                        .overrideConfiguration(c -> c.addExecutionInterceptor(capture))
                        .build();
                var store = new S3Store(
                        s3, S3StoreIT.BUCKET, S3StoreIT.PART_SIZE, S3ServerSideEncryption.of("AES256", null))) {
            store.save("sse/nightly.db", new SnapshotIdentity("nightly", "u2"), out -> out.write(new byte[100]));
        }
        List<Map<String, List<String>>> starts = sent.stream()
                .filter(h -> h.containsKey("x-amz-meta-etcd-snapshot-uid"))
                .toList();
        assertThat(starts)
                .as("CreateMultipartUpload and the checksum record")
                .hasSize(2)
                .allSatisfy(h -> assertThat(h).containsEntry("x-amz-server-side-encryption", List.of("AES256")));
    }

    @Test
    void kmsSettingsLandOnTheRequests() {
        var sse = S3ServerSideEncryption.of("aws:kms", "arn:aws:kms:eu-west-1:1:key/k");
        var upload = sse.apply(software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest.builder())
                .build();
        var put = sse.apply(software.amazon.awssdk.services.s3.model.PutObjectRequest.builder())
                .build();
        assertThat(upload.serverSideEncryptionAsString()).isEqualTo("aws:kms");
        assertThat(upload.ssekmsKeyId()).isEqualTo("arn:aws:kms:eu-west-1:1:key/k");
        assertThat(put.serverSideEncryptionAsString()).isEqualTo("aws:kms");
        assertThat(put.ssekmsKeyId()).isEqualTo("arn:aws:kms:eu-west-1:1:key/k");
    }

    private AgentRun restore(String storeKind, String dir, Path keys) throws Exception {
        return restore(storeKind, dir, keys, EtcdServer.Member.reserve("r-" + dir));
    }

    private AgentRun restore(String storeKind, String dir, Path keys, EtcdServer.Member member) throws Exception {
        Files.createDirectories(tmp.resolve(dir));
        return agent(
                storeKind,
                "snapshot",
                "restore",
                "--key",
                "nightly.db",
                "--data-dir",
                tmp.resolve(dir).toString(),
                "--member-name",
                member.name(),
                "--initial-cluster",
                member.initialCluster(),
                "--initial-cluster-token",
                "new",
                "--initial-advertise-peer-urls",
                member.peerUrl().toString(),
                "--tool",
                RELEASE.restoreTool().toString(),
                "--encryption-key-dir",
                keys.toString());
    }

    private AgentRun agent(String storeKind, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--termination-log", tmp.resolve("no-log").toString()));
        all.addAll(
                storeKind.equals("dir")
                        ? List.of("--dir", tmp.resolve("pvc").toString())
                        : List.of(
                                "--s3-endpoint",
                                S3.getServiceEndpoint(),
                                "--s3-bucket",
                                S3StoreIT.BUCKET,
                                "--s3-force-path-style",
                                "--s3-part-size-mib",
                                "6",
                                "--s3-sse",
                                "AES256"));
        return AgentRun.of(ENV, all.toArray(String[]::new));
    }

    private byte[] storedBytes(String kind, String key) {
        if (kind.equals("dir")) {
            try {
                return Files.readAllBytes(tmp.resolve("pvc").resolve(key));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }
        try (S3Client s3 =
                S3StoreIT.settings(S3.getServiceEndpoint(), S3StoreIT.BUCKET).client()) {
            return s3.getObjectAsBytes(r -> r.bucket(S3StoreIT.BUCKET).key(key)).asByteArray();
        }
    }

    /** A mounted Secret: one file per data key, base64 text as `kubectl create secret --from-literal` would hold. */
    private Path secret(String name, Map<String, byte[]> keys) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("secret-" + name));
        for (var e : keys.entrySet()) {
            Files.writeString(dir.resolve(e.getKey()), Base64.getEncoder().encodeToString(e.getValue()));
        }
        return dir;
    }

    private static byte[] key(int seed) {
        byte[] key = new byte[32];
        new Random(seed).nextBytes(key);
        return key;
    }
}
