package io.etcdoperator.api.v1alpha2;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdoperator.api.crd.CrdSchema;
import io.etcdoperator.api.crd.CrdValidator;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The model reads the documented manifests and writes exactly the JSON names of the API. */
class EtcdClusterSerializationTest {

    @Test
    void pvcSeedKeepsItsValues() {
        EtcdCluster cluster = Serialization.unmarshal(seed("my-etcd.yaml"), EtcdCluster.class);

        assertThat(cluster.getApiVersion()).isEqualTo(EtcdOperatorApi.API_VERSION);
        assertThat(cluster.getMetadata().getName()).isEqualTo("my-etcd");
        assertThat(cluster.getMetadata().getNamespace()).isEqualTo("default");
        assertThat(cluster.getSpec().getReplicas()).isEqualTo(3);
        assertThat(cluster.getSpec().getVersion()).isEqualTo("3.6.11");
        assertThat(cluster.getSpec().getStorage().getSize()).isEqualTo(new Quantity("1Gi"));
        assertThat(cluster.getSpec().getStorage().getMedium()).isNull();
        assertThat(cluster.getSpec().getTls()).isNull();
        assertThat(cluster.getStatus()).isNull();
    }

    @Test
    void memorySeedKeepsItsValues() {
        EtcdCluster cluster = Serialization.unmarshal(seed("my-mem-etcd.yaml"), EtcdCluster.class);

        assertThat(cluster.getSpec().getReplicas()).isEqualTo(3);
        assertThat(cluster.getSpec().getVersion()).isEqualTo("3.6.11");
        assertThat(cluster.getSpec().getStorage().getSize()).isEqualTo(new Quantity("256Mi"));
        assertThat(cluster.getSpec().getStorage().getMedium()).isEqualTo(StorageSpec.MEDIUM_MEMORY);
    }

    @Test
    void seedsPassTheCrd() {
        CrdValidator crd = CrdValidator.forGenerated("etcdclusters");

        assertThat(crd.create(seed("my-etcd.yaml"))).isEmpty();
        assertThat(crd.create(seed("my-mem-etcd.yaml"))).isEmpty();
    }

    @Test
    void seedsSurviveARoundTripUnchanged() {
        for (String seed : List.of("my-etcd.yaml", "my-mem-etcd.yaml")) {
            EtcdCluster cluster = Serialization.unmarshal(seed(seed), EtcdCluster.class);
            JsonNode written = Serialization.jsonMapper().valueToTree(cluster);
            JsonNode original = Serialization.jsonMapper().valueToTree(Serialization.unmarshal(seed(seed), Map.class));

            assertThat(written).as(seed).isEqualTo(original);
            assertThat(Serialization.unmarshal(Serialization.asJson(cluster), EtcdCluster.class)
                            .getSpec())
                    .as(seed)
                    .isEqualTo(cluster.getSpec());
        }
    }

    @Test
    void clusterStatusUsesTheApiFieldNames() {
        EtcdClusterStatus status = new EtcdClusterStatus();
        status.setReadyMembers(3);
        status.setSelector(EtcdOperatorApi.LABEL_CLUSTER + "=my-etcd");
        status.setBrokenMembers(0);
        status.setClusterID("cdf818194e3a8c32");
        status.setClusterToken("default-my-etcd-0c1d");
        status.setAuthEnabled(false);
        status.setExternalMembers(List.of("8e9e05c52164694d"));
        status.setVersion("3.5.16");
        status.setObserved(new ObservedClusterSpec());
        status.setProgressDeadline("2026-11-22T10:00:00Z");
        status.setConditions(List.of(
                new ConditionBuilder().withType("Available").withStatus("True").build()));
        status.setObservedGeneration(2L);

        assertThat(fieldNames(status))
                .containsExactlyInAnyOrder(
                        "readyMembers",
                        "selector",
                        "brokenMembers",
                        "clusterID",
                        "clusterToken",
                        "authEnabled",
                        "externalMembers",
                        "version",
                        "observed",
                        "progressDeadline",
                        "conditions",
                        "observedGeneration");
        assertThat(fieldNames(status)).containsExactlyInAnyOrderElementsOf(schemaProperties("etcdclusters", "status"));
    }

    @Test
    void memberStatusAndTlsUseTheApiFieldNames() {
        EtcdMemberStatus status = new EtcdMemberStatus();
        status.setMemberID("8e9e05c52164694d");
        status.setPodName("my-etcd-7xq2k");
        status.setPodUID("0c1d");
        status.setPvcName("data-my-etcd-7xq2k");
        status.setIsVoter(true);
        status.setReplicas(1);
        status.setSelector("s");
        status.setVersion("3.6.11");
        status.setConditions(List.of());
        status.setObservedGeneration(1L);
        MemberTls tls = new MemberTls();
        tls.setClientServerSecretRef(new LocalObjectReference("my-etcd-server-tls"));
        tls.setClientMTLS(true);
        tls.setPeerSecretRef(new LocalObjectReference("my-etcd-peer-tls"));
        tls.setPeerAutoTLS(false);

        assertThat(fieldNames(status))
                .containsExactlyInAnyOrder(
                        "memberID",
                        "podName",
                        "podUID",
                        "pvcName",
                        "isVoter",
                        "replicas",
                        "selector",
                        "version",
                        "conditions",
                        "observedGeneration");
        assertThat(fieldNames(status)).containsExactlyInAnyOrderElementsOf(schemaProperties("etcdmembers", "status"));
        assertThat(fieldNames(tls))
                .containsExactlyInAnyOrder("clientServerSecretRef", "clientMTLS", "peerSecretRef", "peerAutoTLS");
        assertThat(fieldNames(tls)).containsExactlyInAnyOrderElementsOf(schemaProperties("etcdmembers", "spec.tls"));
    }

    @Test
    void statusWithApiFieldNamesIsRead() {
        EtcdMember member = Serialization.unmarshal("""
        apiVersion: etcd-operator.cozystack.io/v1alpha2
        kind: EtcdMember
        metadata: {name: my-etcd-7xq2k}
        spec:
          tls: {clientMTLS: true, peerAutoTLS: true}
        status: {memberID: 8e9e05c52164694d, podUID: 0c1d, isVoter: true}
        """, EtcdMember.class);
        EtcdCluster cluster = Serialization.unmarshal("""
        apiVersion: etcd-operator.cozystack.io/v1alpha2
        kind: EtcdCluster
        metadata: {name: my-etcd}
        status: {clusterID: cdf818194e3a8c32, authEnabled: true}
        """, EtcdCluster.class);

        assertThat(member.getSpec().getTls().getClientMTLS()).isTrue();
        assertThat(member.getSpec().getTls().getPeerAutoTLS()).isTrue();
        assertThat(member.getStatus().getMemberID()).isEqualTo("8e9e05c52164694d");
        assertThat(member.getStatus().getPodUID()).isEqualTo("0c1d");
        assertThat(member.getStatus().getIsVoter()).isTrue();
        assertThat(cluster.getStatus().getClusterID()).isEqualTo("cdf818194e3a8c32");
        assertThat(cluster.getStatus().getAuthEnabled()).isTrue();
    }

    @Test
    void absentFieldsStayAbsent() {
        EtcdClusterSpec spec = new EtcdClusterSpec();
        spec.setVersion("3.6.11");

        assertThat(fieldNames(spec)).containsExactly("version");
    }

    @Test
    void specEqualityIsByValue() {
        EtcdCluster a = Serialization.unmarshal(seed("my-etcd.yaml"), EtcdCluster.class);
        EtcdCluster b = Serialization.unmarshal(seed("my-etcd.yaml"), EtcdCluster.class);
        EtcdCluster c = Serialization.unmarshal(seed("my-mem-etcd.yaml"), EtcdCluster.class);

        assertThat(a.getSpec())
                .isEqualTo(b.getSpec())
                .hasSameHashCodeAs(b.getSpec())
                .isNotEqualTo(c.getSpec());
        b.getSpec().getStorage().setStorageClassName("fast");
        assertThat(a.getSpec()).isNotEqualTo(b.getSpec());
    }

    @Test
    void quantityEqualityFollowsFabric8() {
        // fabric8 compares quantities by amount, so "1Gi" and "1024Mi" storage specs are equal.
        StorageSpec gi = new StorageSpec();
        gi.setSize(new Quantity("1Gi"));
        StorageSpec mi = new StorageSpec();
        mi.setSize(new Quantity("1024Mi"));

        assertThat(gi).isEqualTo(mi);
    }

    private static List<String> fieldNames(Object value) {
        List<String> names = new ArrayList<>();
        Serialization.jsonMapper().valueToTree(value).fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static List<String> schemaProperties(String plural, String path) {
        Map<?, ?> properties =
                (Map<?, ?>) CrdSchema.generated(plural).node(path).get("properties");
        return properties.keySet().stream().map(String::valueOf).toList();
    }

    private static String seed(String name) {
        try (InputStream in = EtcdClusterSerializationTest.class.getResourceAsStream("/seeds/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
