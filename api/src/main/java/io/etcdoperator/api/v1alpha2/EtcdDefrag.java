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
 * A one-shot defragmentation of a cluster's members, run by the cluster's planner when the cluster is healthy: one
 * member at a time, followers first, the leader last (after handing leadership to a follower).
 */
@Group(EtcdOperatorApi.GROUP)
@Version(EtcdOperatorApi.VERSION)
@Kind("EtcdDefrag")
@Plural("etcddefrags")
@ShortNames("etcddefrag")
@Categories(EtcdOperatorApi.CATEGORY)
@JsonClassDescription("A one-shot defragmentation of an EtcdCluster's members, run when the cluster is at its "
        + "target: followers one at a time, the leader last after leadership moved away.")
@AdditionalPrinterColumn(
        name = "Cluster",
        jsonPath = ".spec.clusterRef.name",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "Defragmented",
        jsonPath = ".status.defragmented",
        type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(
        name = "Age",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class EtcdDefrag extends CustomResource<EtcdDefragSpec, EtcdDefragStatus> implements Namespaced {}
