package io.etcdoperator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.adobe.testing.s3mock.junit5.S3MockExtension;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** The S3 store against S3Mock (in-process, loopback); rejected credentials against a stub that answers like AWS. */
class S3StoreIT {

    static final String BUCKET = "etcd-backups";
    /** Below S3Mock's 10 MB request limit, above S3's 5 MiB minimum: a 13 MiB snapshot takes three parts. */
    static final int PART_SIZE = 6 << 20;

    @RegisterExtension
    static final S3MockExtension S3 = S3MockExtension.builder()
            .silent()
            .withInitialBuckets(BUCKET)
            .withSecureConnection(false)
            .build();

    private final SnapshotIdentity mine =
            new SnapshotIdentity("nightly", UUID.randomUUID().toString());
    private final String key = "it/" + UUID.randomUUID() + "/nightly.db";
    private S3Client raw;
    private S3Store store;

    static S3Settings settings(String endpoint, String bucket) {
        return new S3Settings(URI.create(endpoint), bucket, "us-east-1", true, "test-key", "test-secret", PART_SIZE);
    }

    @BeforeEach
    void setUp() {
        raw = settings(S3.getServiceEndpoint(), BUCKET).client();
        store = new S3Store(settings(S3.getServiceEndpoint(), BUCKET));
    }

    @AfterEach
    void tearDown() {
        store.close();
        raw.close();
    }

    @Test
    void uploadsInPartsAndReportsSizeAndSha256OfTheStoredObject() {
        byte[] data = Sha256.pseudoRandom(13 << 20, 7);

        StoredSnapshot stored = store.save(key, mine, out -> writeInChunks(out, data));

        byte[] object = raw.getObjectAsBytes(r -> r.bucket(BUCKET).key(key)).asByteArray();
        assertThat(stored.uri()).isEqualTo(URI.create("s3://" + BUCKET + "/" + key));
        assertThat(stored.sizeBytes()).isEqualTo(object.length).isEqualTo(data.length);
        assertThat(stored.sha256Hex()).isEqualTo(Sha256.of(object)).isEqualTo(Sha256.of(data));
        assertThat(raw.headObject(r -> r.bucket(BUCKET).key(key)).metadata())
                .containsEntry(S3Store.OWNER_METADATA, mine.uid());
        assertThat(store.recordedChecksum(key)).contains(stored.checksum());
        assertThat(raw.headObject(r -> r.bucket(BUCKET).key(key)).eTag())
                .as("a multipart ETag names its part count")
                .endsWith("-3\"");
    }

    @Test
    void aRetryOfTheSameSnapshotIsANoOp() {
        StoredSnapshot first = store.save(key, mine, out -> out.write(Sha256.pseudoRandom(1000, 1)));

        StoredSnapshot again = store.save(key, mine, out -> {
            throw new AssertionError("a complete snapshot must not be streamed again");
        });

        assertThat(again).isEqualTo(first);
    }

    @Test
    void refusesToOverwriteAnObjectAnotherSnapshotWrote() {
        store.save(key, mine, out -> out.write(new byte[] {1, 2, 3}));
        var other = new SnapshotIdentity("nightly", "someone-else");

        assertThatThrownBy(() -> store.save(key, other, out -> out.write(new byte[] {9})))
                .isInstanceOf(SnapshotFailure.class)
                .satisfies(e ->
                        assertThat(((SnapshotFailure) e).reason()).isEqualTo(SnapshotFailure.Reason.OVERWRITE_REFUSED));
        assertThat(raw.getObjectAsBytes(r -> r.bucket(BUCKET).key(key)).asByteArray())
                .containsExactly(1, 2, 3);
    }

    @Test
    void refusesToOverwriteAnObjectTheAgentDidNotWrite() {
        raw.putObject(r -> r.bucket(BUCKET).key(key), RequestBody.fromString("precious"));

        assertThatThrownBy(() -> store.save(key, mine, out -> out.write(new byte[] {9})))
                .hasMessageContaining("not written by this agent");
        assertThatThrownBy(() -> store.delete(key, mine)).hasMessageContaining("refusing");
        assertThat(raw.getObjectAsBytes(r -> r.bucket(BUCKET).key(key)).asUtf8String())
                .isEqualTo("precious");
    }

    @Test
    void aFailedStreamLeavesNoObject() {
        assertThatThrownBy(() -> store.save(key, mine, out -> {
                    out.write(Sha256.pseudoRandom(PART_SIZE + 10, 3));
                    throw new SnapshotFailure(SnapshotFailure.Reason.CLUSTER_UNREACHABLE, "etcd went away");
                }))
                .hasMessage("etcd went away");

        assertThat(raw.listObjectsV2(r -> r.bucket(BUCKET).prefix(key)).contents())
                .isEmpty();
    }

    @Test
    void fetchDownloadsAndHashesExactlyTheObject(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
        byte[] data = Sha256.pseudoRandom(2 << 20, 5);
        StoredSnapshot stored = store.save(key, mine, out -> out.write(data));

        StoredSnapshot fetched = store.fetch(key, tmp.resolve("copy.db"));

        assertThat(fetched).isEqualTo(stored);
        assertThat(Files.readAllBytes(tmp.resolve("copy.db"))).isEqualTo(data);
        assertThat(store.size(key)).isEqualTo(data.length);
        assertThatThrownBy(() -> store.size(key + ".absent"))
                .satisfies(e -> assertThat(((SnapshotFailure) e).reason())
                        .isEqualTo(SnapshotFailure.Reason.SNAPSHOT_NOT_FOUND));
    }

    @Test
    void deleteRemovesTheObjectAndItsChecksumRecord() {
        store.save(key, mine, out -> out.write(new byte[] {1}));

        assertThat(store.delete(key, mine)).isTrue();

        assertThat(raw.listObjectsV2(r -> r.bucket(BUCKET).prefix(key)).contents())
                .isEmpty();
        assertThat(store.delete(key, mine)).isFalse();
    }

    @Test
    void aMissingBucketIsNamed() {
        try (var missing = new S3Store(settings(S3.getServiceEndpoint(), "no-such-bucket"))) {
            assertThatThrownBy(() -> missing.save(key, mine, out -> out.write(1)))
                    .isInstanceOf(SnapshotFailure.class)
                    .hasMessageContaining("no-such-bucket")
                    .satisfies(e -> assertThat(((SnapshotFailure) e).reason())
                            .isEqualTo(SnapshotFailure.Reason.BUCKET_NOT_FOUND));
        }
    }

    @Test
    void rejectedCredentialsAreNamed() throws IOException {
        // S3Mock accepts any signature, so this stub answers the way AWS does for an unknown access key
        HttpServer stub = stub(403, """
          <?xml version="1.0" encoding="UTF-8"?>
          <Error><Code>InvalidAccessKeyId</Code><Message>The AWS Access Key Id you provided does not exist in our \
          records.</Message><RequestId>1</RequestId></Error>""");
        String endpoint = "http://127.0.0.1:" + stub.getAddress().getPort();
        try (var rejected = new S3Store(settings(endpoint, BUCKET))) {
            assertThatThrownBy(() -> rejected.save(key, mine, out -> out.write(1)))
                    .isInstanceOf(SnapshotFailure.class)
                    .hasMessageContaining("rejected the credentials")
                    .satisfies(e -> assertThat(((SnapshotFailure) e).reason())
                            .isEqualTo(SnapshotFailure.Reason.CREDENTIALS_REJECTED));
        } finally {
            stub.stop(0);
        }
    }

    @Test
    void aBodilessErrorAnswerIsAStorageErrorWithItsStatus() throws IOException {
        // a HEAD answer carries no error code; a busy S3 (or a proxy) may answer 503 to the bucket check
        HttpServer stub = stub(503, "");
        String endpoint = "http://127.0.0.1:" + stub.getAddress().getPort();
        try (var busy = new S3Store(settings(endpoint, BUCKET))) {
            assertThatThrownBy(() -> busy.save(key, mine, out -> out.write(1)))
                    .isInstanceOf(SnapshotFailure.class)
                    .hasMessageContaining("HTTP 503")
                    .satisfies(e ->
                            assertThat(((SnapshotFailure) e).reason()).isEqualTo(SnapshotFailure.Reason.STORAGE_ERROR));
        } finally {
            stub.stop(0);
        }
    }

    /** An S3 stand-in on loopback that answers every request with {@code status} and, except to HEAD, {@code xml}. */
    private static HttpServer stub(int status, String xml) throws IOException {
        HttpServer stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        stub.createContext("/", exchange -> {
            byte[] body = xml.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/xml");
            boolean bodiless = "HEAD".equals(exchange.getRequestMethod()) || body.length == 0;
            exchange.sendResponseHeaders(status, bodiless ? -1 : body.length);
            if (!bodiless) {
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        stub.start();
        return stub;
    }

    @Test
    void anUnreachableEndpointIsAStorageError() {
        String closed = "http://127.0.0.1:" + EtcdServer.freePort();
        try (var unreachable = new S3Store(settings(closed, BUCKET))) {
            assertThatThrownBy(() -> unreachable.save(key, mine, out -> out.write(1)))
                    .isInstanceOf(SnapshotFailure.class)
                    .hasMessageContaining("cannot reach S3")
                    .satisfies(e ->
                            assertThat(((SnapshotFailure) e).reason()).isEqualTo(SnapshotFailure.Reason.STORAGE_ERROR));
        }
    }

    @Test
    void credentialsComeFromTheSecretDirectoryElseTheEnvironment(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        Files.writeString(dir.resolve("AWS_ACCESS_KEY_ID"), "from-file\n");
        Files.writeString(dir.resolve("AWS_SECRET_ACCESS_KEY"), "file-secret\n");
        URI endpoint = URI.create(S3.getServiceEndpoint());
        Map<String, String> env = Map.of("AWS_ACCESS_KEY_ID", "from-env", "AWS_SECRET_ACCESS_KEY", "env-secret");

        var fromFile = S3Settings.withCredentials(endpoint, BUCKET, "", true, Optional.of(dir), env, PART_SIZE);
        var fromEnv = S3Settings.withCredentials(endpoint, BUCKET, null, true, Optional.empty(), env, PART_SIZE);

        assertThat(fromFile.accessKeyId()).isEqualTo("from-file");
        assertThat(fromEnv.accessKeyId()).isEqualTo("from-env");
        assertThat(fromEnv.region()).isEqualTo("us-east-1");
        assertThat(fromFile.toString()).doesNotContain("file-secret");
        assertThatThrownBy(() ->
                        S3Settings.withCredentials(endpoint, BUCKET, "", true, Optional.empty(), Map.of(), PART_SIZE))
                .hasMessageContaining("no S3 credentials");
    }

    private static void writeInChunks(OutputStream out, byte[] data) throws IOException {
        for (int off = 0; off < data.length; off += 32 * 1024) {
            out.write(data, off, Math.min(32 * 1024, data.length - off));
        }
    }
}
