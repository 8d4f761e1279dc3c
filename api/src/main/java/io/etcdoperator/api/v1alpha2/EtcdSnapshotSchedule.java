package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Snapshots of one EtcdCluster on a cron schedule, with retention. An addition to the cozystack API: the operator
 * creates ordinary EtcdSnapshots (labelled with {@link #LABEL_SCHEDULE}) and prunes them, so no CronJob is needed.
 */
@Group(EtcdOperatorApi.GROUP)
@Version(EtcdOperatorApi.VERSION)
@Kind("EtcdSnapshotSchedule")
@Plural("etcdsnapshotschedules")
@ShortNames("etcdsnapsched")
@Categories(EtcdOperatorApi.CATEGORY)
@JsonClassDescription("EtcdSnapshots of one EtcdCluster taken on a cron schedule, with retention: the operator "
        + "creates ordinary EtcdSnapshots labelled with the schedule name and prunes the old ones.")
@AdditionalPrinterColumn(
        name = "Cluster",
        jsonPath = ".spec.clusterRef.name",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Schedule", jsonPath = ".spec.schedule", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Suspend", jsonPath = ".spec.suspend", type = AdditionalPrinterColumn.Type.BOOLEAN)
@AdditionalPrinterColumn(
        name = "Last Success",
        jsonPath = ".status.lastSuccessfulTime",
        type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(
        name = "Age",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class EtcdSnapshotSchedule extends CustomResource<EtcdSnapshotScheduleSpec, EtcdSnapshotScheduleStatus>
        implements Namespaced {

    /** On the EtcdSnapshots a schedule creates: the schedule's name. Retention only ever prunes these. */
    public static final String LABEL_SCHEDULE = EtcdOperatorApi.RESERVED_PREFIX + "schedule";
}
