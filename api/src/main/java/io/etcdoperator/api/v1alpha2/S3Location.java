package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.util.Objects;

@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("An object store location reached through the S3 API.")
public class S3Location {

    @Required
    @Size(min = 1)
    @JsonPropertyDescription("URL of the S3 endpoint, for example https://s3.example.com.")
    private String endpoint;

    @Required
    @Size(min = 1)
    @JsonPropertyDescription("Name of the bucket.")
    private String bucket;

    @JsonPropertyDescription("Object key. For a snapshot destination, a prefix: the object is <key>/<snapshot "
            + "name>.db. For a restore source, the exact key of the snapshot object (status.artifact.uri without "
            + "s3://<bucket>/).")
    private String key;

    @Required
    @JsonPropertyDescription("Secret in the same namespace with the access key in AWS_ACCESS_KEY_ID and the secret "
            + "key in AWS_SECRET_ACCESS_KEY.")
    private LocalObjectReference credentialsSecretRef;

    @JsonPropertyDescription("Region of the bucket; default us-east-1.")
    private String region;

    @JsonPropertyDescription("true addresses the bucket in the URL path (endpoint/bucket/key) instead of as a host "
            + "name, as many S3-compatible servers need; default false.")
    private Boolean forcePathStyle;

    @JsonPropertyDescription("Server-side encryption S3 applies to the objects written: AES256 (SSE-S3) or aws:kms "
            + "(SSE-KMS); unset leaves it to the bucket's default. Independent of spec encryption, which encrypts before "
            + "upload.")
    @Pattern(SchemaPatterns.S3_SERVER_SIDE_ENCRYPTION)
    private String serverSideEncryption;

    @JsonPropertyDescription("KMS key id or ARN for serverSideEncryption aws:kms (refused with AES256); unset uses the "
            + "account's AWS managed key.")
    private String kmsKeyId;

    public String getEndpoint() {
        return endpoint;
    }

    public void setEndpoint(String endpoint) {
        this.endpoint = endpoint;
    }

    public String getBucket() {
        return bucket;
    }

    public void setBucket(String bucket) {
        this.bucket = bucket;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }

    public LocalObjectReference getCredentialsSecretRef() {
        return credentialsSecretRef;
    }

    public void setCredentialsSecretRef(LocalObjectReference credentialsSecretRef) {
        this.credentialsSecretRef = credentialsSecretRef;
    }

    public String getRegion() {
        return region;
    }

    public void setRegion(String region) {
        this.region = region;
    }

    public Boolean getForcePathStyle() {
        return forcePathStyle;
    }

    public void setForcePathStyle(Boolean forcePathStyle) {
        this.forcePathStyle = forcePathStyle;
    }

    public String getServerSideEncryption() {
        return serverSideEncryption;
    }

    public void setServerSideEncryption(String serverSideEncryption) {
        this.serverSideEncryption = serverSideEncryption;
    }

    public String getKmsKeyId() {
        return kmsKeyId;
    }

    public void setKmsKeyId(String kmsKeyId) {
        this.kmsKeyId = kmsKeyId;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof S3Location that)) {
            return false;
        }
        return Objects.equals(endpoint, that.endpoint)
                && Objects.equals(bucket, that.bucket)
                && Objects.equals(key, that.key)
                && Objects.equals(credentialsSecretRef, that.credentialsSecretRef)
                && Objects.equals(region, that.region)
                && Objects.equals(forcePathStyle, that.forcePathStyle)
                && Objects.equals(serverSideEncryption, that.serverSideEncryption)
                && Objects.equals(kmsKeyId, that.kmsKeyId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                endpoint, bucket, key, credentialsSecretRef, region, forcePathStyle, serverSideEncryption, kmsKeyId);
    }
}
