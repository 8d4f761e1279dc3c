package io.etcdoperator.snapshot;

/**
 * A snapshot or restore that cannot succeed as asked. {@link #reason()} is a CamelCase word the operator copies into
 * the EtcdSnapshot status; the message says what to fix and never carries a secret.
 */
public class SnapshotFailure extends RuntimeException {

    public enum Reason {
        INVALID_REQUEST("InvalidRequest"),
        CLUSTER_UNREACHABLE("ClusterUnreachable"),
        NO_HEALTHY_VOTER("NoHealthyVoter"),
        ETCD_AUTH_REJECTED("EtcdAuthRejected"),
        ETCD_TLS_REJECTED("EtcdTlsRejected"),
        BUCKET_NOT_FOUND("BucketNotFound"),
        CREDENTIALS_REJECTED("CredentialsRejected"),
        OVERWRITE_REFUSED("OverwriteRefused"),
        SNAPSHOT_NOT_FOUND("SnapshotNotFound"),
        CHECKSUM_MISMATCH("ChecksumMismatch"),
        INSUFFICIENT_SPACE("InsufficientSpace"),
        RESTORE_TOOL_FAILED("RestoreToolFailed"),
        /** The snapshot names a key id the mounted key Secret does not hold (or none was mounted). */
        ENCRYPTION_KEY_MISSING("EncryptionKeyMissing"),
        /** Wrong key, a truncated or altered object, or a plain snapshot where an encrypted one was expected. */
        DECRYPTION_FAILED("DecryptionFailed"),
        /** The stored snapshot's numbers differ from what the save recorded, or its restore does not hold them. */
        VERIFICATION_FAILED("VerificationFailed"),
        /** A bug or an unforeseen answer: still reported as a JSON line, so the controller can say what happened. */
        INTERNAL_ERROR("InternalError"),
        STORAGE_ERROR("StorageError");

        private final String word;

        Reason(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }
    }

    private final Reason reason;

    public SnapshotFailure(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public SnapshotFailure(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
