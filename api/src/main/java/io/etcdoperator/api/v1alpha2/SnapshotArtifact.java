package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/** The stored snapshot file. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SnapshotArtifact {

  private String uri;

  private Long sizeBytes;

  private String checksum;

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
        && Objects.equals(checksum, that.checksum);
  }

  @Override
  public int hashCode() {
    return Objects.hash(uri, sizeBytes, checksum);
  }
}
