package io.etcdoperator.snapshot;

import java.util.Set;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Maps S3 answers to the reasons a user can act on: a missing bucket, rejected credentials, anything else. */
final class S3Errors {

    private static final Set<String> CREDENTIAL_CODES = Set.of(
            "InvalidAccessKeyId",
            "SignatureDoesNotMatch",
            "AccessDenied",
            "InvalidToken",
            "ExpiredToken",
            "AuthorizationHeaderMalformed");

    private S3Errors() {}

    static SnapshotFailure translate(String action, SdkException e) {
        if (e instanceof S3Exception s3) {
            String code =
                    s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
            String detail = "HTTP " + s3.statusCode() + (code == null ? "" : " " + code);
            if ("NoSuchBucket".equals(code)) {
                return new SnapshotFailure(
                        SnapshotFailure.Reason.BUCKET_NOT_FOUND,
                        action + ": the bucket does not exist (" + detail + ")",
                        e);
            }
            // a HEAD answer has no body, so no error code: Set.of(...).contains(null) would throw
            if (s3.statusCode() == 403 || s3.statusCode() == 401 || (code != null && CREDENTIAL_CODES.contains(code))) {
                return new SnapshotFailure(
                        SnapshotFailure.Reason.CREDENTIALS_REJECTED,
                        action + ": S3 rejected the credentials or denied access (" + detail + ")",
                        e);
            }
            return new SnapshotFailure(SnapshotFailure.Reason.STORAGE_ERROR, action + " failed (" + detail + ")", e);
        }
        if (e instanceof SdkClientException) {
            return new SnapshotFailure(
                    SnapshotFailure.Reason.STORAGE_ERROR, action + ": cannot reach S3: " + e.getMessage(), e);
        }
        return new SnapshotFailure(SnapshotFailure.Reason.STORAGE_ERROR, action + " failed: " + e.getMessage(), e);
    }

    static boolean notFound(SdkException e) {
        return e instanceof S3Exception s3 && s3.statusCode() == 404;
    }
}
