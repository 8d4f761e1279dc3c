package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Objects;

/**
 * Which completed snapshots of a schedule to keep. A snapshot is pruned when it is beyond the newest
 * {@code keepLast} or older than {@code maxAge}; the newest complete snapshot is never pruned.
 */
@ValidationRule(value = "has(self.keepLast) || has(self.maxAge)", message = "set keepLast, maxAge or both")
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SnapshotRetention {

    /** A sum of whole units: days, hours, minutes, e.g. 7d, 36h, 1d12h. */
    static final String AGE = "^([0-9]+[dhm])+$";

    @Min(1)
    @JsonPropertyDescription("Number of newest complete snapshots to keep, at least 1.")
    private Integer keepLast;

    @Pattern(AGE)
    @JsonPropertyDescription("Age beyond which a complete snapshot is pruned, as a sum of days, hours and minutes "
            + "(for example 30d, 36h, 1d12h). The newest complete snapshot is always kept.")
    private String maxAge;

    public Integer getKeepLast() {
        return keepLast;
    }

    public void setKeepLast(Integer keepLast) {
        this.keepLast = keepLast;
    }

    public String getMaxAge() {
        return maxAge;
    }

    public void setMaxAge(String maxAge) {
        this.maxAge = maxAge;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SnapshotRetention that)) {
            return false;
        }
        return Objects.equals(keepLast, that.keepLast) && Objects.equals(maxAge, that.maxAge);
    }

    @Override
    public int hashCode() {
        return Objects.hash(keepLast, maxAge);
    }
}
