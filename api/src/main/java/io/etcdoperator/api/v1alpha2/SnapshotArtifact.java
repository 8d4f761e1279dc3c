package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** The stored snapshot file, and the member it was streamed from. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SnapshotArtifact {

  private String uri;

  private Long sizeBytes;

  private String checksum;

  /** Client URL of the member streamed from; absent when a retried Job found the object already stored. */
  private String sourceEndpoint;

  @JsonProperty("sourceMemberID")
  private String sourceMemberID;

  /** The revision the source member reported just before streaming: the snapshot holds at least this one. */
  private Long revision;

  public String getUri() {
    return uri;
  }

  public void setUri(String uri) {
    this.uri = uri;
  }

  public Long getSizeBytes() {
    return sizeBytes;
  }

  public void setSizeBytes(Long sizeBytes) {
    this.sizeBytes = sizeBytes;
  }

  public String getChecksum() {
    return checksum;
  }

  public void setChecksum(String checksum) {
    this.checksum = checksum;
  }

  public String getSourceEndpoint() {
    return sourceEndpoint;
  }

  public void setSourceEndpoint(String sourceEndpoint) {
    this.sourceEndpoint = sourceEndpoint;
  }

  public String getSourceMemberID() {
    return sourceMemberID;
  }

  public void setSourceMemberID(String sourceMemberID) {
    this.sourceMemberID = sourceMemberID;
  }

  public Long getRevision() {
    return revision;
  }

  public void setRevision(Long revision) {
    this.revision = revision;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof SnapshotArtifact that)) {
      return false;
    }
    return Objects.equals(uri, that.uri)
        && Objects.equals(sizeBytes, that.sizeBytes)
        && Objects.equals(checksum, that.checksum)
        && Objects.equals(sourceEndpoint, that.sourceEndpoint)
        && Objects.equals(sourceMemberID, that.sourceMemberID)
        && Objects.equals(revision, that.revision);
  }

  @Override
  public int hashCode() {
    return Objects.hash(uri, sizeBytes, checksum, sourceEndpoint, sourceMemberID, revision);
  }
}
