package io.etcdoperator.api.v1alpha2;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
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
@Kind("EtcdCluster")
@Plural("etcdclusters")
@ShortNames("etcdc")
@Categories(EtcdOperatorApi.CATEGORY)
@JsonClassDescription("An etcd cluster run by the operator: a set of EtcdMembers (one Pod and one PVC or tmpfs "
        + "each), a headless and a client Service and a PodDisruptionBudget, scaled, upgraded and repaired one member at "
        + "a time towards the spec.")
// Columns appear in this order (CrdGeneration keeps it), with Age last as kubectl puts it.
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.readyMembers", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Replicas", jsonPath = ".spec.replicas", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Version", jsonPath = ".spec.version", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "Available",
        jsonPath = ".status.conditions[?(@.type==\"Available\")].status",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "Reason",
        jsonPath = ".status.conditions[?(@.type==\"Available\")].reason",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
        name = "Age",
        jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
@ValidationRule(
        value = "self.metadata.name.size() <= " + EtcdOperatorApi.MAX_CLUSTER_NAME,
        message = "metadata.name must be at most " + EtcdOperatorApi.MAX_CLUSTER_NAME
                + " characters: the client Service " + "<name>-client must fit in a 63-character DNS label")
public class EtcdCluster extends CustomResource<EtcdClusterSpec, EtcdClusterStatus> implements Namespaced {}
