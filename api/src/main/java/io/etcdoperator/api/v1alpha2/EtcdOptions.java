package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
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
@JsonClassDescription("etcd server flags.")
public class EtcdOptions {

    public static final String COMPACTION_PERIODIC = "periodic";
    public static final String COMPACTION_REVISION = "revision";

    @Min(0)
    @JsonPropertyDescription("Backend size quota in bytes (etcd's --quota-backend-bytes); 0 or absent keeps etcd's "
            + "default of 2 GiB. When set, at least 8Mi and at most storage.size. When the backend reaches it etcd raises "
            + "a NOSPACE alarm and refuses writes.")
    private Long quotaBackendBytes;

    @JsonPropertyDescription("How autoCompactionRetention is read (etcd's --auto-compaction-mode): periodic (a time "
            + "span) or revision (a number of revisions). Absent keeps etcd's default, periodic.")
    private String autoCompactionMode;

    @Pattern(SchemaPatterns.COMPACTION_RETENTION)
    @JsonPropertyDescription("History etcd keeps before compacting (etcd's --auto-compaction-retention): a duration "
            + "such as 1h or 30m, or a number (hours in periodic mode, revisions in revision mode). Absent or 0 turns "
            + "automatic compaction off.")
    private String autoCompactionRetention;

    @Min(1)
    @JsonPropertyDescription("Committed transactions between two etcd snapshots of the raft log (etcd's "
            + "--snapshot-count), at least 1; absent keeps etcd's default.")
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
