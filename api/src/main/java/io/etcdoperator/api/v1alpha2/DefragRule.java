package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.etcdoperator.api.schema.QuantityPattern;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Objects;

/** Which members to defragment. An absent or empty rule means freeSpaceAbove 200Mi. */
@ValidationRule(
        value = "!has(self.all) || !self.all || "
                + "!(has(self.freeSpaceAbove) || has(self.quotaUsageAbove) || has(self.minReclaim))",
        message = "all cannot be combined with freeSpaceAbove, quotaUsageAbove or minReclaim")
@ValidationRule(
        value = "!has(self.minReclaim) || has(self.quotaUsageAbove)",
        message = "minReclaim only applies together with quotaUsageAbove")
@ValidationRule(
        value = "!has(self.minReclaim) || !has(self.freeSpaceAbove) "
                + "|| quantity(string(self.minReclaim)).compareTo(quantity(string(self.freeSpaceAbove))) <= 0",
        message = "minReclaim cannot exceed freeSpaceAbove")
@SchemaCustomizer(value = QuantityPattern.class, input = "freeSpaceAbove,minReclaim")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DefragRule {

    @JsonPropertyDescription("true defragments every member. Cannot be combined with the other fields.")
    private Boolean all;

    @ValidationRule(
            value = "quantity(string(self)).isGreaterThan(quantity('0'))",
            message = "freeSpaceAbove must be greater than zero")
    @JsonPropertyDescription("Defragment a member whose reclaimable space (dbSize - dbSizeInUse) is above this "
            + "quantity, for example 500Mi; greater than zero. 200Mi when the rule is empty.")
    private Quantity freeSpaceAbove;

    @Pattern(SchemaPatterns.QUOTA_USAGE_PERCENT)
    @JsonPropertyDescription("Defragment a member whose dbSize is at or above this share of the backend quota "
            + "(spec.options.quotaBackendBytes, else 2 GiB), as a percentage 1% to 100%, once its reclaimable space "
            + "exceeds minReclaim.")
    private String quotaUsageAbove;

    @ValidationRule(
            value = "quantity(string(self)).isGreaterThan(quantity('0'))",
            message = "minReclaim must be greater than zero")
    @JsonPropertyDescription("With quotaUsageAbove: the reclaimable space a member must exceed to be defragmented; "
            + "default 32Mi, greater than zero, not above freeSpaceAbove.")
    private Quantity minReclaim;

    public Boolean getAll() {
        return all;
    }

    public void setAll(Boolean all) {
        this.all = all;
    }

    public Quantity getFreeSpaceAbove() {
        return freeSpaceAbove;
    }

    public void setFreeSpaceAbove(Quantity freeSpaceAbove) {
        this.freeSpaceAbove = freeSpaceAbove;
    }

    public String getQuotaUsageAbove() {
        return quotaUsageAbove;
    }

    public void setQuotaUsageAbove(String quotaUsageAbove) {
        this.quotaUsageAbove = quotaUsageAbove;
    }

    public Quantity getMinReclaim() {
        return minReclaim;
    }

    public void setMinReclaim(Quantity minReclaim) {
        this.minReclaim = minReclaim;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof DefragRule that)) {
            return false;
        }
        return Objects.equals(all, that.all)
                && Objects.equals(freeSpaceAbove, that.freeSpaceAbove)
                && Objects.equals(quotaUsageAbove, that.quotaUsageAbove)
                && Objects.equals(minReclaim, that.minReclaim);
    }

    @Override
    public int hashCode() {
        return Objects.hash(all, freeSpaceAbove, quotaUsageAbove, minReclaim);
    }
}
