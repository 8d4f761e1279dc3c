package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LocalObjectReference;

/** When and how to defragment: a cron schedule, the EtcdDefrag rule to run, and how many finished runs to keep. */
@ValidationRule(
        value = "has(self.clusterRef) && has(self.clusterRef.name) && size(self.clusterRef.name) != 0",
        message = "clusterRef.name must name an EtcdCluster")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("When to defragment a cluster, the rule each run gets, and how many finished runs to keep.")
public class EtcdDefragScheduleSpec {

    @Required
    @JsonPropertyDescription("The EtcdCluster to defragment, by name, in the same namespace.")
    private LocalObjectReference clusterRef;

    @Required
    @Pattern(EtcdSnapshotScheduleSpec.CRON)
    @JsonPropertyDescription("Cron schedule: five fields (minute hour day-of-month month day-of-week) or one of "
            + "@yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly. Runs never overlap.")
    private String schedule;

    /** IANA time zone the schedule is read in; UTC when unset. */
    @JsonPropertyDescription("IANA time zone the schedule is read in, for example Europe/Berlin; UTC when unset.")
    private String timeZone;

    /** The rule each run gets; absent means freeSpaceAbove 200Mi, as on an EtcdDefrag. */
    @JsonPropertyDescription(
            "The rule each run gets, as on an EtcdDefrag; absent means members with more than 200Mi " + "reclaimable.")
    private DefragRule rule;

    @JsonPropertyDescription("true stops creating new runs; a running one finishes. Default false.")
    private Boolean suspend;

    /** Completed runs kept (default 3); a failed run is deleted once a newer run completed. */
    @Min(1)
    @JsonPropertyDescription("Number of complete runs kept, at least 1; default 3. A failed run is deleted once a "
            + "newer run completed.")
    private Integer successfulRunsHistoryLimit;

    public LocalObjectReference getClusterRef() {
        return clusterRef;
    }

    public void setClusterRef(LocalObjectReference clusterRef) {
        this.clusterRef = clusterRef;
    }

    public String getSchedule() {
        return schedule;
    }

    public void setSchedule(String schedule) {
        this.schedule = schedule;
    }

    public String getTimeZone() {
        return timeZone;
    }

    public void setTimeZone(String timeZone) {
        this.timeZone = timeZone;
    }

    public DefragRule getRule() {
        return rule;
    }

    public void setRule(DefragRule rule) {
        this.rule = rule;
    }

    public Boolean getSuspend() {
        return suspend;
    }

    public void setSuspend(Boolean suspend) {
        this.suspend = suspend;
    }

    public Integer getSuccessfulRunsHistoryLimit() {
        return successfulRunsHistoryLimit;
    }

    public void setSuccessfulRunsHistoryLimit(Integer successfulRunsHistoryLimit) {
        this.successfulRunsHistoryLimit = successfulRunsHistoryLimit;
    }
}
