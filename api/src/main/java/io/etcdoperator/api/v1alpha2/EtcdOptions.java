package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.etcdoperator.api.schema.SchemaPatch;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import java.util.Objects;

/** etcd server flags. */
@SchemaCustomizer(value = SchemaPatch.class, input = """
    properties:
      autoCompactionMode: {enum: ["periodic", "revision"]}
    """)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdOptions {

  public static final String COMPACTION_PERIODIC = "periodic";
  public static final String COMPACTION_REVISION = "revision";

  @Min(0)
  private Long quotaBackendBytes;

  private String autoCompactionMode;

  @Pattern(SchemaPatterns.COMPACTION_RETENTION)
  private String autoCompactionRetention;

  @Min(1)
  private Long snapshotCount;

  public Long getQuotaBackendBytes() {
    return quotaBackendBytes;
  }

  public void setQuotaBackendBytes(Long quotaBackendBytes) {
    this.quotaBackendBytes = quotaBackendBytes;
  }

  public String getAutoCompactionMode() {
    return autoCompactionMode;
  }

  public void setAutoCompactionMode(String autoCompactionMode) {
    this.autoCompactionMode = autoCompactionMode;
  }

  public String getAutoCompactionRetention() {
    return autoCompactionRetention;
  }

  public void setAutoCompactionRetention(String autoCompactionRetention) {
    this.autoCompactionRetention = autoCompactionRetention;
  }

  public Long getSnapshotCount() {
    return snapshotCount;
  }

  public void setSnapshotCount(Long snapshotCount) {
    this.snapshotCount = snapshotCount;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof EtcdOptions that)) {
      return false;
    }
    return Objects.equals(quotaBackendBytes, that.quotaBackendBytes)
        && Objects.equals(autoCompactionMode, that.autoCompactionMode)
        && Objects.equals(autoCompactionRetention, that.autoCompactionRetention)
        && Objects.equals(snapshotCount, that.snapshotCount);
  }

  @Override
  public int hashCode() {
    return Objects.hash(quotaBackendBytes, autoCompactionMode, autoCompactionRetention, snapshotCount);
  }
}
