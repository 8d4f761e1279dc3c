package io.etcdoperator.snapshot;

import java.util.Optional;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * S3 server-side encryption for what the agent writes: SSE-S3 ({@code AES256}) or SSE-KMS ({@code aws:kms}, with an
 * optional KMS key id, else the bucket's default key). Reads need nothing: S3 decrypts for anyone allowed to read.
 */
public record S3ServerSideEncryption(Optional<String> algorithm, Optional<String> kmsKeyId) {

    public static final S3ServerSideEncryption NONE = new S3ServerSideEncryption(Optional.empty(), Optional.empty());
    public static final String SSE_S3 = "AES256";
    public static final String SSE_KMS = "aws:kms";

    public S3ServerSideEncryption {
        if (algorithm.isPresent()
                && !algorithm.get().equals(SSE_S3)
                && !algorithm.get().equals(SSE_KMS)) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INVALID_REQUEST,
                    "S3 server-side encryption is " + SSE_S3 + " or " + SSE_KMS + ", not '" + algorithm.get() + "'");
        }
        if (kmsKeyId.isPresent() && !algorithm.equals(Optional.of(SSE_KMS))) {
            throw new SnapshotFailure(SnapshotFailure.Reason.INVALID_REQUEST, "a KMS key id needs " + SSE_KMS);
        }
    }

    public static S3ServerSideEncryption of(String algorithm, String kmsKeyId) {
        return new S3ServerSideEncryption(blankToEmpty(algorithm), blankToEmpty(kmsKeyId));
    }

    CreateMultipartUploadRequest.Builder apply(CreateMultipartUploadRequest.Builder request) {
        algorithm.ifPresent(request::serverSideEncryption);
        kmsKeyId.ifPresent(request::ssekmsKeyId);
        return request;
    }

    PutObjectRequest.Builder apply(PutObjectRequest.Builder request) {
        algorithm.ifPresent(request::serverSideEncryption);
        kmsKeyId.ifPresent(request::ssekmsKeyId);
        return request;
    }

    private static Optional<String> blankToEmpty(String text) {
        return text == null || text.isBlank() ? Optional.empty() : Optional.of(text.strip());
    }
}
