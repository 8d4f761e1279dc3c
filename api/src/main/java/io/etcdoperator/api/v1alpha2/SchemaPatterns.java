package io.etcdoperator.api.v1alpha2;

/** Regular expressions used in the CRD schemas. */
final class SchemaPatterns {

    // at most 9 digits a number, so each fits a Java int and a Go int32
    static final String ETCD_VERSION = "^\\d{1,9}\\.\\d{1,9}\\.\\d{1,9}$";

    static final String COMPACTION_RETENTION = "^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$|^[0-9]+$";

    static final String QUOTA_USAGE_PERCENT = "^([1-9][0-9]?|100)%$";

    /** A Secret data key; snapshots store it as their encryption key id. */
    static final String SECRET_DATA_KEY = "^[-._a-zA-Z0-9]{1,253}$";

    static final String S3_SERVER_SIDE_ENCRYPTION = "^(AES256|aws:kms)$";

    private SchemaPatterns() {}
}
