package io.etcdoperator.api.v1alpha2;

import static io.etcdoperator.api.crd.Admission.assertAccepted;
import static io.etcdoperator.api.crd.Admission.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.crd.CrdValidator;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The EtcdMember CRD: the shapes the operator writes, and the rules it shares with EtcdCluster. */
class EtcdMemberRulesTest {

    private static final CrdValidator CRD = CrdValidator.forGenerated("etcdmembers");

    private static final String MEMBER = """
      spec:
        clusterName: my-etcd
        version: 3.6.11
        storage: {size: 1Gi, medium: ""}
        initialCluster: ""
        clusterToken: default-my-etcd-0c1d
      """;

    @AfterAll
    static void everyRuleWasSeenAcceptingAndRejecting() {
        assertThat(CRD.rulesNotSeenBothWays()).isEmpty();
    }

    @Test
    void pendingMemberWithEmptyInitialClusterIsAccepted() {
        assertAccepted(CRD.create(MEMBER));
    }

    @Test
    void replicasDefaultsToOneAndCannotBeAnythingElse() {
        assertThat(spec(CRD.defaulted(MEMBER))).containsEntry("replicas", 1L);
        assertRejected(CRD.create(MEMBER + "  replicas: 2\n"), "spec.replicas", "less than or equal to 1");
        assertRejected(CRD.create(MEMBER + "  replicas: 0\n"), "spec.replicas", "greater than or equal to 1");
    }

    @Test
    void identityFieldsAreRequired() {
        assertRejected(
                CRD.create(MEMBER.replace("  initialCluster: \"\"\n", "")), "spec.initialCluster", "is required");
        assertRejected(
                CRD.create(MEMBER.replace("clusterName: my-etcd", "clusterName: ''")),
                "spec.clusterName",
                "at least 1 characters");
        assertRejected(
                CRD.create(MEMBER.replace("  storage: {size: 1Gi, medium: \"\"}\n", "")),
                "spec.storage",
                "is required");
    }

    @Test
    void storageFollowsTheClusterRules() {
        String grown = MEMBER.replace("size: 1Gi", "size: 2Gi");
        String memory = MEMBER.replace("medium: \"\"", "medium: Memory");

        assertRejected(CRD.update(grown, MEMBER), "spec.storage.size", "storage.size cannot be decreased");
        assertAccepted(CRD.update(MEMBER, grown));
        assertRejected(CRD.update(MEMBER, memory), "spec.storage.medium", "storage.medium is immutable");
        assertAccepted(CRD.update(memory, memory));
    }

    @Test
    void seedRestoreFollowsTheClusterRules() {
        String restore = MEMBER + """
          bootstrap: true
          restore:
            source:
              pvc: {claimName: backups, subPath: nightly/etcd.db}
        """;

        assertAccepted(CRD.create(restore));
        assertRejected(
                CRD.create(restore.replace(", subPath: nightly/etcd.db", "")),
                "spec.restore",
                "source.pvc.subPath must be the exact path");
        assertRejected(
                CRD.create(restore.replace("pvc: {claimName: backups, subPath: nightly/etcd.db}", """
        s3: {endpoint: https://s3.example.com, bucket: b, credentialsSecretRef: {name: s3}}""")),
                "spec.restore",
                "source.s3.key must be the exact key");
        assertAccepted(CRD.create(restore.replace("pvc: {claimName: backups, subPath: nightly/etcd.db}", """
        s3: {endpoint: https://s3.example.com, bucket: b, key: a.db, credentialsSecretRef: {name: s3}}""")));
        assertRejected(
                CRD.create(restore.replace("pvc: {claimName: backups, subPath: nightly/etcd.db}", "{}")),
                "spec.restore.source",
                "exactly one of s3 or pvc");
    }

    @Test
    void tlsViewUsesTheInventoryFieldNames() {
        assertAccepted(CRD.create(MEMBER + """
          tls:
            clientServerSecretRef: {name: my-etcd-server-tls}
            clientMTLS: true
            peerSecretRef: {name: my-etcd-peer-tls}
            peerAutoTLS: false
        """));
        assertRejected(CRD.create(MEMBER + "  tls: {clientMTLS: 'yes'}\n"), "spec.tls.clientMTLS", "wrong type");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(Map<String, Object> object) {
        return (Map<String, Object>) object.get("spec");
    }
}
