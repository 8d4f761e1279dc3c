package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.util.Objects;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class S3Location {

  @Required
  @Size(min = 1)
  private String endpoint;

  @Required
  @Size(min = 1)
  private String bucket;

  private String key;

  @Required
  private LocalObjectReference credentialsSecretRef;

  private String region;

  private Boolean forcePathStyle;

  /** Server-side encryption of the objects written: AES256 (SSE-S3) or aws:kms (SSE-KMS). */
  @Pattern(SchemaPatterns.S3_SERVER_SIDE_ENCRYPTION)
  private String serverSideEncryption;

  /** The KMS key for aws:kms (the agent refuses it with AES256); without it S3 uses the bucket's AWS managed key. */
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
    return Objects.hash(endpoint, bucket, key, credentialsSecretRef, region, forcePathStyle, serverSideEncryption,
        kmsKeyId);
  }
}
