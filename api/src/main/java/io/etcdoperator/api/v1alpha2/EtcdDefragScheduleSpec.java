package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
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
public class EtcdDefragScheduleSpec {

  @Required
  private LocalObjectReference clusterRef;

  @Required
  @Pattern(EtcdSnapshotScheduleSpec.CRON)
  private String schedule;

  /** IANA time zone the schedule is read in; UTC when unset. */
  private String timeZone;

  /** The rule each run gets; absent means freeSpaceAbove 200Mi, as on an EtcdDefrag. */
  private DefragRule rule;

  private Boolean suspend;

  /** Completed runs kept (default 3); a failed run is deleted once a newer run completed. */
  @Min(1)
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
