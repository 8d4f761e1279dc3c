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

/** One etcd member (a Pod plus its PVC or tmpfs). Owned and edited by the operator, not by users. */
@Group(EtcdOperatorApi.GROUP)
@Version(EtcdOperatorApi.VERSION)
@Kind("EtcdMember")
@Plural("etcdmembers")
@ShortNames("etcdm")
@Categories(EtcdOperatorApi.CATEGORY)
@JsonClassDescription("One member of an EtcdCluster: its Pod and its data volume. Created, edited and deleted by "
        + "the operator only; read it, do not write it.")
@AdditionalPrinterColumn(name = "Cluster", jsonPath = ".spec.clusterName", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Version", jsonPath = ".spec.version", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Running", jsonPath = ".status.version", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "Ready",
        jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "Age",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
public class EtcdMember extends CustomResource<EtcdMemberSpec, EtcdMemberStatus> implements Namespaced {}
