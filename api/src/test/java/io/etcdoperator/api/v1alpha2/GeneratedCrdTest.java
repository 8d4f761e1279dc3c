package io.etcdoperator.api.v1alpha2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.etcdoperator.api.crd.CelRule;
import io.etcdoperator.api.crd.CrdSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The generated CRDs carry the names, subresources, printer columns, defaults and rules of the API. */
class GeneratedCrdTest {

    @Test
    void allKindsAreNamespacedV1alpha2InTheEtcdCategory() {
        Map<String, String> kinds = Map.of(
                "etcdclusters",
                "EtcdCluster",
                "etcdmembers",
                "EtcdMember",
                "etcdsnapshots",
                "EtcdSnapshot",
                "etcddefrags",
                "EtcdDefrag",
                "etcdsnapshotschedules",
                "EtcdSnapshotSchedule",
                "etcddefragschedules",
                "EtcdDefragSchedule");
        Map<String, String> shortNames = Map.of(
                "etcdclusters",
                "etcdc",
                "etcdmembers",
                "etcdm",
                "etcdsnapshots",
                "etcdsnap",
                "etcddefrags",
                "etcddefrag",
                "etcdsnapshotschedules",
                "etcdsnapsched",
                "etcddefragschedules",
                "etcddefragsched");
        kinds.forEach((plural, kind) -> {
            CrdSchema crd = CrdSchema.generated(plural);
            Map<?, ?> spec = (Map<?, ?>) crd.crd().get("spec");
            Map<?, ?> names = (Map<?, ?>) spec.get("names");

            assertThat(spec.get("group")).as(plural).isEqualTo(EtcdOperatorApi.GROUP);
            assertThat(spec.get("scope")).as(plural).isEqualTo("Namespaced");
            assertThat(names.get("kind")).as(plural).isEqualTo(kind);
            assertThat(names.get("plural")).as(plural).isEqualTo(plural);
            assertThat(names.get("shortNames")).as(plural).isEqualTo(List.of(shortNames.get(plural)));
            // `kubectl get etcd` lists every kind; none joins `all`, which is meant for the built-in workload kinds
            assertThat(names.get("categories")).as(plural).isEqualTo(List.of("etcd"));
            assertThat(crd.version())
                    .as(plural)
                    .containsEntry("name", EtcdOperatorApi.VERSION)
                    .containsEntry("served", true)
                    .containsEntry("storage", true);
        });
    }

    @Test
    void clusterScalesOnReadyMembers() {
        assertThat(subresources("etcdclusters"))
                .isEqualTo(Map.of(
                        "status",
                        Map.of(),
                        "scale",
                        Map.of(
                                "specReplicasPath", ".spec.replicas",
                                "statusReplicasPath", ".status.readyMembers",
                                "labelSelectorPath", ".status.selector")));
    }

    @Test
    void memberScalesOnItsSingleReplica() {
        assertThat(subresources("etcdmembers"))
                .isEqualTo(Map.of(
                        "status",
                        Map.of(),
                        "scale",
                        Map.of(
                                "specReplicasPath", ".spec.replicas",
                                "statusReplicasPath", ".status.replicas",
                                "labelSelectorPath", ".status.selector")));
    }

    @Test
    void snapshotAndDefragHaveOnlyAStatusSubresource() {
        assertThat(subresources("etcdsnapshots")).isEqualTo(Map.of("status", Map.of()));
        assertThat(subresources("etcddefrags")).isEqualTo(Map.of("status", Map.of()));
    }

    @Test
    void printerColumnsInTheirDeclaredOrderWithAgeLast() {
        assertThat(columns("etcdclusters"))
                .containsExactly(
                        "Ready=.status.readyMembers",
                        "Replicas=.spec.replicas",
                        "Version=.spec.version",
                        "Available=.status.conditions[?(@.type==\"Available\")].status",
                        "Reason=.status.conditions[?(@.type==\"Available\")].reason",
                        "Age=.metadata.creationTimestamp");
        assertThat(columns("etcdmembers"))
                .containsExactly(
                        "Cluster=.spec.clusterName",
                        "Version=.spec.version",
                        "Running=.status.version",
                        "Ready=.status.conditions[?(@.type==\"Ready\")].status",
                        "Age=.metadata.creationTimestamp");
        assertThat(columns("etcdsnapshots"))
                .containsExactly(
                        "Cluster=.spec.clusterRef.name", "Phase=.status.phase", "Age=.metadata.creationTimestamp");
        assertThat(columns("etcddefrags"))
                .containsExactly(
                        "Cluster=.spec.clusterRef.name",
                        "Phase=.status.phase",
                        "Defragmented=.status.defragmented",
                        "Age=.metadata.creationTimestamp");
        for (String plural : List.of("etcdsnapshotschedules", "etcddefragschedules")) {
            assertThat(columns(plural))
                    .as(plural)
                    .containsExactly(
                            "Cluster=.spec.clusterRef.name",
                            "Schedule=.spec.schedule",
                            "Suspend=.spec.suspend",
                            "Last Success=.status.lastSuccessfulTime",
                            "Age=.metadata.creationTimestamp");
        }
    }

    @Test
    void clusterDefaults() {
        CrdSchema crd = CrdSchema.generated("etcdclusters");

        assertThat(crd.node("spec.replicas")).containsEntry("default", 3L);
        assertThat(crd.node("spec.progressDeadlineSeconds")).containsEntry("default", 600L);
        assertThat(crd.node("spec.storage")).containsEntry("default", Map.of("size", "1Gi"));
        assertThat(crd.node("spec.storage.size"))
                .containsEntry("default", "1Gi")
                .containsEntry("x-kubernetes-int-or-string", true)
                .containsKey("pattern");
        assertThat(crd.node("spec.storage.medium"))
                .doesNotContainKey("default")
                .containsEntry("enum", List.of("", "Memory"));
        assertThat(crd.node("spec.tls.client.certManager.serverIssuerRef.kind"))
                .containsEntry("default", "Issuer")
                .containsEntry("enum", List.of("Issuer", "ClusterIssuer"));
        assertThat(crd.node("spec")).containsEntry("required", List.of("version"));
    }

    @Test
    void noEmptyStringDefaultsBecauseKubernetes120RefusesThem() {
        for (String plural : List.of("etcdclusters", "etcdmembers", "etcdsnapshots", "etcddefrags")) {
            assertThat(emptyStringDefaults(CrdSchema.generated(plural).crd(), plural))
                    .isEmpty();
        }
    }

    private static List<String> emptyStringDefaults(Object node, String path) {
        List<String> found = new ArrayList<>();
        if (node instanceof Map<?, ?> map) {
            if ("".equals(map.get("default"))) {
                found.add(path);
            }
            map.forEach((key, child) -> found.addAll(emptyStringDefaults(child, path + "." + key)));
        } else if (node instanceof List<?> list) {
            list.forEach(child -> found.addAll(emptyStringDefaults(child, path + "[]")));
        }
        return found;
    }

    @Test
    void timesAreDateTimeStrings() {
        assertThat(CrdSchema.generated("etcdclusters").node("status.progressDeadline"))
                .containsEntry("type", "string")
                .containsEntry("format", "date-time");
        CrdSchema defrag = CrdSchema.generated("etcddefrags");
        for (String path : List.of("status.startedAt", "status.completedAt")) {
            assertThat(defrag.node(path)).as(path).containsEntry("format", "date-time");
        }
    }

    @Test
    void defragMemberHistoryIsAMapListKeyedByName() {
        assertThat(CrdSchema.generated("etcddefrags").node("status.members"))
                .containsEntry("x-kubernetes-list-type", "map")
                .containsEntry("x-kubernetes-list-map-keys", List.of("name"));
    }

    @Test
    void clusterSpecCarriesTheThirteenSpecLevelRules() {
        List<CelRule> rules = CrdSchema.generated("etcdclusters").rules();

        assertThat(rules).filteredOn(rule -> rule.path().equals("spec")).hasSize(13);
        assertThat(rules)
                .filteredOn(rule -> rule.path().equals("spec"))
                .filteredOn(CelRule::isTransition)
                .hasSize(8);
        assertThat(rules)
                .extracting(CelRule::path)
                .contains(
                        "spec.storage.size",
                        "spec.storage.medium",
                        "spec.tls.client",
                        "spec.tls.peer",
                        "spec.bootstrap.restore",
                        "spec.bootstrap.restore.source",
                        "status.observed.storage.size");
    }

    @Test
    void snapshotGuardsItsClusterRefLikeDefrag() {
        assertThat(CrdSchema.generated("etcdsnapshots").rules())
                .extracting(CelRule::path, CelRule::rule)
                .contains(tuple(
                        "spec",
                        "has(self.clusterRef) && has(self.clusterRef.name) && size(self.clusterRef.name) != 0"));
    }

    private static Map<?, ?> subresources(String plural) {
        return (Map<?, ?>) CrdSchema.generated(plural).version().get("subresources");
    }

    private static List<String> columns(String plural) {
        List<?> columns = (List<?>) CrdSchema.generated(plural).version().get("additionalPrinterColumns");
        return columns.stream()
                .map(c -> (Map<?, ?>) c)
                .map(c -> c.get("name") + "=" + c.get("jsonPath"))
                .toList();
    }
}
