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
 * EtcdDefrag runs of one EtcdCluster on a cron schedule. An addition to the cozystack API (which plans an
 * EtcdDefragPolicy): the operator creates ordinary EtcdDefrags labelled with {@link #LABEL_SCHEDULE} and keeps a
 * bounded history of them.
 */
@Group(EtcdOperatorApi.GROUP)
@Version(EtcdOperatorApi.VERSION)
@Kind("EtcdDefragSchedule")
@Plural("etcddefragschedules")
@ShortNames("etcddefragsched")
@Categories(EtcdOperatorApi.CATEGORY)
@JsonClassDescription("EtcdDefrags of one EtcdCluster run on a cron schedule: the operator creates ordinary "
        + "EtcdDefrags labelled with the schedule name and keeps a bounded history of them.")
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
public class EtcdDefragSchedule extends CustomResource<EtcdDefragScheduleSpec, EtcdDefragScheduleStatus>
        implements Namespaced {

    /** On the EtcdDefrags a schedule creates: the schedule's name. History pruning only ever deletes these. */
    public static final String LABEL_SCHEDULE = EtcdOperatorApi.RESERVED_PREFIX + "defrag-schedule";
}
