package io.etcdoperator.snapshot;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Snapshots as objects in one S3 bucket. The owner is user metadata of the object itself (set when the multipart
 * upload starts); the checksum record is a small {@code <key>.sha256} object written once the upload completed.
 */
public final class S3Store implements SnapshotStore, AutoCloseable {

    /** User metadata naming the EtcdSnapshot (by uid) that wrote an object. */
    public static final String OWNER_METADATA = "etcd-snapshot-uid";

    static final String NAME_METADATA = "etcd-snapshot-name";

    private final S3Client s3;
    private final String bucket;
    private final int partSize;
    private final S3ServerSideEncryption sse;

    public S3Store(S3Settings settings) {
        this(settings, S3ServerSideEncryption.NONE);
    }

    public S3Store(S3Settings settings, S3ServerSideEncryption sse) {
        this(settings.client(), settings.bucket(), settings.partSize(), sse);
    }

    S3Store(S3Client s3, String bucket, int partSize) {
        this(s3, bucket, partSize, S3ServerSideEncryption.NONE);
    }

    S3Store(S3Client s3, String bucket, int partSize, S3ServerSideEncryption sse) {
        this.s3 = s3;
        this.bucket = bucket;
        this.partSize = partSize;
        this.sse = sse;
    }

    @Override
    public StoredSnapshot save(String key, SnapshotIdentity owner, SnapshotWriter writer) {
        requireBucket();
        Optional<StoredSnapshot> done = existing(key, owner);
        if (done.isPresent()) {
            return done.get();
        }
        String uploadId = call(
                "start upload of " + uri(key),
                () -> s3.createMultipartUpload(r -> sse.apply(r.bucket(bucket)
                                .key(key)
                                .contentType("application/octet-stream")
                                .metadata(Map.of(OWNER_METADATA, owner.uid(), NAME_METADATA, owner.name()))))
                        .uploadId());
        StoredSnapshot stored;
        try {
            var parts = new MultipartUploadStream(s3, bucket, key, uploadId, partSize);
            var tally = new TallyingOutputStream(parts);
            writer.writeTo(tally);
            var completed = parts.finish();
            call(
                    "complete upload of " + uri(key),
                    () -> s3.completeMultipartUpload(r ->
                            r.bucket(bucket).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(completed))));
            stored = StoredSnapshot.of(uri(key), tally.count(), tally.digest());
        } catch (IOException | RuntimeException e) {
            abort(key, uploadId);
            if (e instanceof SdkException sdk) {
                throw S3Errors.translate("upload of " + uri(key), sdk);
            }
            if (e instanceof IOException io) {
                throw new SnapshotFailure(
                        SnapshotFailure.Reason.STORAGE_ERROR, "upload of " + uri(key) + ": " + io.getMessage(), io);
            }
            throw (RuntimeException) e;
        }
        call(
                "record checksum of " + uri(key),
                () -> s3.putObject(
                        r -> sse.apply(r.bucket(bucket)
                                .key(checksumKey(key))
                                .contentType("text/plain")
                                .metadata(Map.of(OWNER_METADATA, owner.uid()))),
                        RequestBody.fromString(StoreRecords.checksumLine(stored))));
        return stored;
    }

    @Override
    public StoredSnapshot fetch(String key, Path target, UnaryOperator<OutputStream> decoding) {
        requireBucket();
        try (InputStream in = call(
                        "download of " + uri(key),
                        () -> s3.getObject(r -> r.bucket(bucket).key(key)));
                var tally = new TallyingOutputStream(decoding.apply(Files.newOutputStream(target)))) {
            in.transferTo(tally);
            tally.flush();
            return StoredSnapshot.of(uri(key), tally.count(), tally.digest());
        } catch (IOException e) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.STORAGE_ERROR,
                    "download of " + uri(key) + " to " + target + " failed: " + e.getMessage(),
                    e);
        }
    }

    @Override
    public long size(String key) {
        requireBucket();
        return head(key).orElseThrow(() -> notFound(key)).contentLength();
    }

    @Override
    public Optional<String> recordedChecksum(String key) {
        requireBucket();
        try {
            String text = s3.getObjectAsBytes(r -> r.bucket(bucket).key(checksumKey(key)))
                    .asUtf8String();
            return StoreRecords.parse(text).map(r -> StoredSnapshot.CHECKSUM_PREFIX + r.sha256Hex());
        } catch (SdkException e) {
            if (S3Errors.notFound(e)) {
                return Optional.empty();
            }
            throw S3Errors.translate("read of " + uri(checksumKey(key)), e);
        }
    }

    @Override
    public boolean delete(String key, SnapshotIdentity owner) {
        requireBucket();
        Optional<HeadObjectResponse> head = head(key);
        if (head.isEmpty()) {
            call(
                    "delete of " + uri(checksumKey(key)),
                    () -> s3.deleteObject(r -> r.bucket(bucket).key(checksumKey(key))));
            return false;
        }
        Optional<String> found = Optional.ofNullable(head.get().metadata().get(OWNER_METADATA));
        if (!found.equals(Optional.of(owner.uid()))) {
            throw StoreRecords.foreign(uri(key).toString(), found);
        }
        call(
                "delete of " + uri(checksumKey(key)),
                () -> s3.deleteObject(r -> r.bucket(bucket).key(checksumKey(key))));
        call(
                "delete of " + uri(key),
                () -> s3.deleteObject(r -> r.bucket(bucket).key(key)));
        return true;
    }

    @Override
    public void close() {
        s3.close();
    }

    public URI uri(String key) {
        return URI.create("s3://" + bucket + "/" + key);
    }

    /** HeadObject cannot tell a missing bucket from a missing key (a HEAD answer has no body), so ask first. */
    private void requireBucket() {
        try {
            s3.headBucket(r -> r.bucket(bucket));
        } catch (SdkException e) {
            if (S3Errors.notFound(e)) {
                throw new SnapshotFailure(
                        SnapshotFailure.Reason.BUCKET_NOT_FOUND, "bucket " + bucket + " does not exist", e);
            }
            throw S3Errors.translate("check of bucket " + bucket, e);
        }
    }

    private Optional<StoredSnapshot> existing(String key, SnapshotIdentity owner) {
        Optional<HeadObjectResponse> head = head(key);
        if (head.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> found = Optional.ofNullable(head.get().metadata().get(OWNER_METADATA));
        if (!found.equals(Optional.of(owner.uid()))) {
            throw StoreRecords.foreign(uri(key).toString(), found);
        }
        return recordedChecksum(key)
                .map(StoredSnapshot::hexOf)
                .map(hex -> new StoredSnapshot(uri(key), head.get().contentLength(), hex));
    }

    private Optional<HeadObjectResponse> head(String key) {
        try {
            return Optional.of(s3.headObject(r -> r.bucket(bucket).key(key)));
        } catch (SdkException e) {
            if (S3Errors.notFound(e)) {
                return Optional.empty();
            }
            throw S3Errors.translate("check of " + uri(key), e);
        }
    }

    private void abort(String key, String uploadId) {
        try {
            s3.abortMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId));
        } catch (SdkException e) {
            // the bucket's lifecycle rules clean up what we could not; the original failure matters more
        }
    }

    private SnapshotFailure notFound(String key) {
        return new SnapshotFailure(SnapshotFailure.Reason.SNAPSHOT_NOT_FOUND, "no object " + uri(key));
    }

    private static String checksumKey(String key) {
        return key + StoreRecords.CHECKSUM_SUFFIX;
    }

    private static <T> T call(String action, Supplier<T> request) {
        try {
            return request.get();
        } catch (SdkException e) {
            if (e instanceof NoSuchKeyException) {
                throw new SnapshotFailure(SnapshotFailure.Reason.SNAPSHOT_NOT_FOUND, action + ": no such object", e);
            }
            throw S3Errors.translate(action, e);
        }
    }
}
