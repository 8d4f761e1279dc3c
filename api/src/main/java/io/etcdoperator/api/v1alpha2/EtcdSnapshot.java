package io.etcdoperator.api.v1alpha2;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

@Group(EtcdOperatorApi.GROUP)
@Version(EtcdOperatorApi.VERSION)
@Kind("EtcdSnapshot")
@Plural("etcdsnapshots")
@AdditionalPrinterColumn(name = "Cluster", jsonPath = ".spec.clusterRef.name",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class EtcdSnapshot extends CustomResource<EtcdSnapshotSpec, EtcdSnapshotStatus> implements Namespaced {
}
