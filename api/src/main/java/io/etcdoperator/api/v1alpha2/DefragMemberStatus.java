package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.etcdoperator.api.schema.SchemaPatch;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

/** What one defragmentation run did to one member. */
@SchemaCustomizer(value = SchemaPatch.class, input = """
    properties:
      role: {enum: ["leader", "follower"]}
      outcome: {enum: ["Pending", "Skipped", "Defragmented", "Failed"]}
      finishedAt: {format: "date-time"}
    """)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DefragMemberStatus {

    public static final String ROLE_LEADER = "leader";
    public static final String ROLE_FOLLOWER = "follower";
    public static final String OUTCOME_PENDING = "Pending";
    public static final String OUTCOME_SKIPPED = "Skipped";
    public static final String OUTCOME_DEFRAGMENTED = "Defragmented";
    public static final String OUTCOME_FAILED = "Failed";

    @Required
    @JsonPropertyDescription("Name of the EtcdMember.")
    private String name;

    @JsonPropertyDescription("leader or follower, when the run started. The leader goes last, after leadership moved "
            + "to a follower.")
    private String role;

    @JsonPropertyDescription("Pending, Skipped (below the rule's threshold), Defragmented or Failed.")
    private String outcome;

    @JsonPropertyDescription("Why the member was skipped or failed, in CamelCase (for example BelowThreshold).")
    private String reason;

    @JsonPropertyDescription("Size of the member's backend in bytes before defragmentation.")
    private Long dbSizeBefore;

    @JsonPropertyDescription("Size of the member's backend in bytes after defragmentation.")
    private Long dbSizeAfter;

    @JsonPropertyDescription("dbSizeBefore minus dbSizeAfter, in bytes.")
    private Long reclaimedBytes;

    @JsonPropertyDescription("When this member was done, RFC 3339.")
    private String finishedAt;

    /** Defragment calls made for this member so far (our addition: the retry bound survives an operator restart). */
    @JsonPropertyDescription("Defragment calls made for this member so far; a member is retried up to 3 times.")
    private Integer attempts;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getRole() {
        return role;
    }

    public void setRole(String role) {
        this.role = role;
    }

    public String getOutcome() {
        return outcome;
    }

    public void setOutcome(String outcome) {
        this.outcome = outcome;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public Long getDbSizeBefore() {
        return dbSizeBefore;
    }

    public void setDbSizeBefore(Long dbSizeBefore) {
        this.dbSizeBefore = dbSizeBefore;
    }

    public Long getDbSizeAfter() {
        return dbSizeAfter;
    }

    public void setDbSizeAfter(Long dbSizeAfter) {
        this.dbSizeAfter = dbSizeAfter;
    }

    public Long getReclaimedBytes() {
        return reclaimedBytes;
    }

    public void setReclaimedBytes(Long reclaimedBytes) {
        this.reclaimedBytes = reclaimedBytes;
    }

    public String getFinishedAt() {
        return finishedAt;
    }

    public void setFinishedAt(String finishedAt) {
        this.finishedAt = finishedAt;
    }

    public Integer getAttempts() {
        return attempts;
    }

    public void setAttempts(Integer attempts) {
        this.attempts = attempts;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof DefragMemberStatus that)) {
            return false;
        }
        return Objects.equals(name, that.name)
                && Objects.equals(role, that.role)
                && Objects.equals(outcome, that.outcome)
                && Objects.equals(reason, that.reason)
                && Objects.equals(dbSizeBefore, that.dbSizeBefore)
                && Objects.equals(dbSizeAfter, that.dbSizeAfter)
                && Objects.equals(reclaimedBytes, that.reclaimedBytes)
                && Objects.equals(finishedAt, that.finishedAt)
                && Objects.equals(attempts, that.attempts);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                name, role, outcome, reason, dbSizeBefore, dbSizeAfter, reclaimedBytes, finishedAt, attempts);
    }
}
