package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.etcdoperator.api.schema.SchemaPatch;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Objects;

/** Times are RFC 3339 strings, like every other time in this API's status. */
@SchemaCustomizer(value = SchemaPatch.class, input = """
    properties:
      lastScheduleTime: {format: "date-time"}
      lastSuccessfulTime: {format: "date-time"}
    """)
@JsonInclude(JsonInclude.Include.NON_NULL)
public class EtcdDefragScheduleStatus {

  private String lastScheduleTime;

  private String lastSuccessfulTime;

  /** Names of this schedule's EtcdDefrags that have not finished yet (at most one: runs never overlap). */
  private List<String> active;

  private Long observedGeneration;

  private List<Condition> conditions;

  public String getLastScheduleTime() {
    return lastScheduleTime;
  }

  public void setLastScheduleTime(String lastScheduleTime) {
    this.lastScheduleTime = lastScheduleTime;
  }

  public String getLastSuccessfulTime() {
    return lastSuccessfulTime;
  }

  public void setLastSuccessfulTime(String lastSuccessfulTime) {
    this.lastSuccessfulTime = lastSuccessfulTime;
  }

  public List<String> getActive() {
    return active;
  }

  public void setActive(List<String> active) {
    this.active = active;
  }

  public Long getObservedGeneration() {
    return observedGeneration;
  }

  public void setObservedGeneration(Long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EtcdDefragScheduleStatus that
        && Objects.equals(lastScheduleTime, that.lastScheduleTime)
        && Objects.equals(lastSuccessfulTime, that.lastSuccessfulTime)
        && Objects.equals(active, that.active)
        && Objects.equals(observedGeneration, that.observedGeneration)
        && Objects.equals(conditions, that.conditions);
  }

  @Override
  public int hashCode() {
    return Objects.hash(lastScheduleTime, lastSuccessfulTime, active, observedGeneration, conditions);
  }
}
