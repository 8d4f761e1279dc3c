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

@Group(EtcdOperatorApi.GROUP)
@Version(EtcdOperatorApi.VERSION)
@Kind("EtcdSnapshot")
@Plural("etcdsnapshots")
@ShortNames("etcdsnap")
@Categories(EtcdOperatorApi.CATEGORY)
@JsonClassDescription("A one-shot snapshot of an EtcdCluster, streamed by an agent Job from one member to S3 or a "
        + "PVC. The stored file is kept when the EtcdSnapshot is deleted.")
@AdditionalPrinterColumn(
        name = "Cluster",
        jsonPath = ".spec.clusterRef.name",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "Age",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class EtcdSnapshot extends CustomResource<EtcdSnapshotSpec, EtcdSnapshotStatus> implements Namespaced {}
