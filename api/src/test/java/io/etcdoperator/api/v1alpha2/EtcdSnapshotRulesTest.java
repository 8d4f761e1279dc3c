package io.etcdoperator.api.v1alpha2;

import static io.etcdoperator.api.crd.Admission.assertAccepted;
import static io.etcdoperator.api.crd.Admission.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.crd.CrdValidator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class EtcdSnapshotRulesTest {

    private static final CrdValidator CRD = CrdValidator.forGenerated("etcdsnapshots");

    private static final String TO_PVC = """
      spec:
        clusterRef: {name: my-etcd}
        destination:
          pvc: {claimName: backups}
      """;

    private static final String TO_S3 = """
      spec:
        clusterRef: {name: my-etcd}
        destination:
          s3:
            endpoint: https://s3.example.com
            bucket: backups
            credentialsSecretRef: {name: s3-credentials}
      """;

    @AfterAll
    static void everyRuleWasSeenAcceptingAndRejecting() {
        assertThat(CRD.rulesNotSeenBothWays()).isEmpty();
    }

    @Test
    void eitherDestinationIsAcceptedAndKeyAndSubPathAreOptionalPrefixes() {
        assertAccepted(CRD.create(TO_PVC));
        assertAccepted(CRD.create(TO_S3));
        assertAccepted(CRD.create(TO_S3 + "      key: etcd/\n      region: eu-west-1\n      forcePathStyle: true\n"));
    }

    @Test
    void destinationIsExactlyOneLocation() {
        assertRejected(CRD.create("""
        spec:
          clusterRef: {name: my-etcd}
          destination: {}
        """), "spec.destination", "exactly one of s3 or pvc");
        assertRejected(
                CRD.create(TO_S3 + "    pvc: {claimName: backups}\n"), "spec.destination", "exactly one of s3 or pvc");
        assertRejected(CRD.create("spec: {clusterRef: {name: my-etcd}}"), "spec.destination", "is required");
    }

    @Test
    void clusterRefMustNameACluster() {
        assertRejected(
                CRD.create(TO_PVC.replace("{name: my-etcd}", "{name: ''}")),
                "spec",
                "clusterRef.name must name an EtcdCluster");
        assertRejected(
                CRD.create(TO_PVC.replace("{name: my-etcd}", "{}")),
                "spec",
                "clusterRef.name must name an EtcdCluster");
    }

    @Test
    void s3AndPvcLocationsNeedTheirCoordinates() {
        assertRejected(
                CRD.create(TO_S3.replace("bucket: backups", "bucket: ''")),
                "spec.destination.s3.bucket",
                "at least 1 characters");
        assertRejected(
                CRD.create(TO_S3.replace("      endpoint: https://s3.example.com\n", "")),
                "spec.destination.s3.endpoint",
                "is required");
        assertRejected(
                CRD.create(TO_PVC.replace("{claimName: backups}", "{subPath: daily}")),
                "spec.destination.pvc.claimName",
                "is required");
    }

    @Test
    void encryptionNamesOneSecretEntryAndServerSideEncryptionIsAes256OrKms() {
        assertAccepted(CRD.create(TO_S3 + "      serverSideEncryption: aws:kms\n      kmsKeyId: alias/etcd\n"
                + "    encryption: {keySecretRef: {name: snapshot-keys, key: '2025-01'}}\n"));
        assertAccepted(CRD.create(TO_PVC + "    encryption: {keySecretRef: {name: snapshot-keys, key: k1.v2}}\n"));
        assertRejected(
                CRD.create(TO_S3 + "      serverSideEncryption: aes256\n"),
                "spec.destination.s3.serverSideEncryption",
                "must match");
        assertRejected(
                CRD.create(TO_PVC + "    encryption: {keySecretRef: {name: snapshot-keys}}\n"),
                "spec.destination.encryption.keySecretRef.key",
                "is required");
        assertRejected(
                CRD.create(TO_PVC + "    encryption: {keySecretRef: {name: snapshot-keys, key: ../k}}\n"),
                "spec.destination.encryption.keySecretRef.key",
                "must match");
    }

    @Test
    void statusPhaseIsOneOfTheKnownPhases() {
        assertAccepted(CRD.create(TO_PVC + """
        status:
          phase: Complete
          artifact: {uri: 'file:///snapshot/data/my-snap.db', sizeBytes: 45088, checksum: 'sha256:00'}
        """));
        assertRejected(CRD.create(TO_PVC + "status: {phase: Done}\n"), "status.phase", "unsupported value");
    }
}
