package io.etcdoperator.snapshot.cli;

import io.etcdoperator.snapshot.DirectoryStore;
import io.etcdoperator.snapshot.S3ServerSideEncryption;
import io.etcdoperator.snapshot.S3Settings;
import io.etcdoperator.snapshot.S3Store;
import io.etcdoperator.snapshot.SnapshotFailure;
import io.etcdoperator.snapshot.SnapshotStore;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Where snapshots live: an S3 bucket (credentials from a mounted Secret or the environment) or a directory. */
final class StoreOptions {

    @Option(names = "--s3-endpoint", description = "S3-compatible endpoint URL.")
    URI s3Endpoint;

    @Option(names = "--s3-bucket", description = "Bucket; set this or --dir.")
    String s3Bucket;

    @Option(names = "--s3-region", defaultValue = S3Settings.DEFAULT_REGION, description = "Signing region.")
    String s3Region;

    @Option(names = "--s3-force-path-style", description = "Path-style addressing (MinIO, Ceph, ...).")
    boolean s3ForcePathStyle;

    @Option(
            names = "--s3-credentials-dir",
            description = "Directory with files AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (default: environment).")
    Path s3CredentialsDir;

    @Option(
            names = "--s3-part-size-mib",
            defaultValue = "16",
            description = "Multipart part size; the upload's memory.")
    int partSizeMib;

    @Option(names = "--s3-sse", description = "Server-side encryption of written objects: AES256 (SSE-S3) or aws:kms.")
    String s3Sse;

    @Option(names = "--s3-sse-kms-key-id", description = "KMS key for aws:kms (default: the bucket's AWS managed key).")
    String s3SseKmsKeyId;

    @Option(names = "--dir", description = "Directory (a mounted PVC); set this or --s3-bucket.")
    Path dir;

    SnapshotStore open(Map<String, String> env) {
        if ((s3Bucket == null) == (dir == null)) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INVALID_REQUEST, "set exactly one of --s3-bucket or --dir");
        }
        if (dir != null) {
            return new DirectoryStore(dir);
        }
        if (s3Endpoint == null) {
            throw new SnapshotFailure(SnapshotFailure.Reason.INVALID_REQUEST, "--s3-bucket needs --s3-endpoint");
        }
        return new S3Store(
                S3Settings.withCredentials(
                        s3Endpoint,
                        s3Bucket,
                        s3Region,
                        s3ForcePathStyle,
                        Optional.ofNullable(s3CredentialsDir),
                        env,
                        partSizeMib << 20),
                S3ServerSideEncryption.of(s3Sse, s3SseKmsKeyId));
    }
}
