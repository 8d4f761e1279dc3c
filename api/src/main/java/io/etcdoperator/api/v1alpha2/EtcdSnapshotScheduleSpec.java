package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.util.Objects;

@ValidationRule(
        value = "has(self.clusterRef) && has(self.clusterRef.name) && size(self.clusterRef.name) != 0",
        message = "clusterRef.name must name an EtcdCluster")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonClassDescription("When to take snapshots of a cluster, where to store them and how many to keep.")
public class EtcdSnapshotScheduleSpec {

    /** Five cron fields (minute hour day-of-month month day-of-week) or one of the @ macros. */
    static final String CRON = "^(@(yearly|annually|monthly|weekly|daily|midnight|hourly)"
            + "|[0-9*/,\\-A-Za-z]+( +[0-9*/,\\-A-Za-z?]+){4})$";

    @Required
    @JsonPropertyDescription("The EtcdCluster to snapshot, by name, in the same namespace.")
    private LocalObjectReference clusterRef;

    @Required
    @Pattern(CRON)
    @JsonPropertyDescription("Cron schedule: five fields (minute hour day-of-month month day-of-week) or one of "
            + "@yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly. Runs never overlap.")
    private String schedule;

    /** IANA time zone the schedule is read in; UTC when unset. */
    @JsonPropertyDescription("IANA time zone the schedule is read in, for example Europe/Berlin; UTC when unset.")
    private String timeZone;

    @Required
    @JsonPropertyDescription("Where each snapshot is stored, as on an EtcdSnapshot; s3.key or pvc.subPath is a "
            + "prefix under which each snapshot gets <snapshot name>.db.")
    private SnapshotLocation destination;

    @JsonPropertyDescription("Which complete snapshots to keep; absent keeps all of them.")
    private SnapshotRetention retention;

    @JsonPropertyDescription("true stops creating new snapshots; running ones finish. Default false.")
    private Boolean suspend;

    @JsonPropertyDescription("Copied into every snapshot the schedule creates: true verifies each stored snapshot "
            + "restores (see EtcdSnapshot spec.verify). Default false.")
    private Boolean verify;

    public Boolean getVerify() {
        return verify;
    }

    public void setVerify(Boolean verify) {
        this.verify = verify;
    }

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

    public SnapshotLocation getDestination() {
        return destination;
    }

    public void setDestination(SnapshotLocation destination) {
        this.destination = destination;
    }

    public SnapshotRetention getRetention() {
        return retention;
    }

    public void setRetention(SnapshotRetention retention) {
        this.retention = retention;
    }

    public Boolean getSuspend() {
        return suspend;
    }

    public void setSuspend(Boolean suspend) {
        this.suspend = suspend;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof EtcdSnapshotScheduleSpec that)) {
            return false;
        }
        return Objects.equals(clusterRef, that.clusterRef)
                && Objects.equals(schedule, that.schedule)
                && Objects.equals(timeZone, that.timeZone)
                && Objects.equals(destination, that.destination)
                && Objects.equals(retention, that.retention)
                && Objects.equals(suspend, that.suspend)
                && Objects.equals(verify, that.verify);
    }

    @Override
    public int hashCode() {
        return Objects.hash(clusterRef, schedule, timeZone, destination, retention, suspend, verify);
    }
}
