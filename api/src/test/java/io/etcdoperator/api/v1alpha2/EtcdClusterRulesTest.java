package io.etcdoperator.api.v1alpha2;

import static io.etcdoperator.api.crd.Admission.assertAccepted;
import static io.etcdoperator.api.crd.Admission.assertRejected;
import static io.etcdoperator.api.crd.Admission.assertRejectedAmong;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.crd.CrdValidator;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The EtcdCluster CRD's defaults, schema constraints and CEL rules, admitted as the API server would. */
class EtcdClusterRulesTest {

    private static final CrdValidator CRD = CrdValidator.forGenerated("etcdclusters");

    private static final String PLAIN = """
      spec:
        version: 3.6.11
      """;

    private static final String MEMORY = """
      spec:
        version: 3.6.11
        storage: {size: 256Mi, medium: Memory}
      """;

    private static final String CLIENT_TLS = """
      spec:
        version: 3.6.11
        tls:
          client:
            serverSecretRef: {name: etcd-server}
      """;

    @AfterAll
    static void everyRuleWasSeenAcceptingAndRejecting() {
        assertThat(CRD.rulesNotSeenBothWays()).isEmpty();
    }

    @Test
    void defaultsFillReplicasStorageAndDeadline() {
        Map<String, Object> spec = spec(CRD.defaulted(PLAIN));

        assertThat(spec).containsEntry("replicas", 3L).containsEntry("progressDeadlineSeconds", 600L);
        assertThat(spec.get("storage")).isEqualTo(Map.of("size", "1Gi"));
    }

    @Test
    void absentMediumToMemoryIsAChangeOfMedium() {
        String disk = """
        spec:
          version: 3.6.11
          storage: {size: 2Gi}
        """;

        assertRejected(
                CRD.update(disk, disk.replace("{size: 2Gi}", "{size: 2Gi, medium: Memory}")),
                "spec.storage.medium",
                "storage.medium is immutable");
        assertThat(CRD.update(disk, disk.replace("{size: 2Gi}", "{size: 2Gi, medium: \"\"}")))
                .isEmpty();
    }

    @Nested
    class OnCreate {

        @Test
        void plainClusterIsAccepted() {
            assertAccepted(CRD.create(PLAIN));
        }

        @Test
        void versionIsRequiredAndMustBeMajorMinorPatch() {
            assertRejected(CRD.create("spec: {replicas: 3}"), "spec.version", "is required");
            assertRejected(CRD.create("spec: {version: v3.6.11}"), "spec.version", "must match");
            assertRejected(CRD.create("spec: {version: '3.6'}"), "spec.version", "must match");
        }

        @Test
        void replicasAndDeadlineHaveLowerBounds() {
            assertRejected(
                    CRD.create("spec: {version: 3.6.11, replicas: -1}"), "spec.replicas", "greater than or equal to 0");
            assertRejected(
                    CRD.create("spec: {version: 3.6.11, progressDeadlineSeconds: 0}"),
                    "spec.progressDeadlineSeconds",
                    "greater than or equal to 1");
        }

        @Test
        void storageMediumAndSizeAreChecked() {
            assertRejected(
                    CRD.create("spec: {version: 3.6.11, storage: {medium: Disk}}"),
                    "spec.storage.medium",
                    "unsupported value");
            assertRejected(
                    CRD.create("spec: {version: 3.6.11, storage: {size: lots}}"), "spec.storage.size", "must match");
            assertAccepted(CRD.create("spec: {version: 3.6.11, storage: {size: 1073741824}}"));
        }

        @Test
        void versionNumbersHaveAtMostNineDigits() {
            assertRejected(CRD.create("spec: {version: 3.5.99999999999999999999}"), "spec.version", "must match");
            assertAccepted(CRD.create("spec: {version: 3.5.999999999}"));
        }

        @Test
        void replicasHaveAnUpperBound() {
            assertRejected(
                    CRD.create("spec: {version: 3.6.11, replicas: 8}"), "spec.replicas", "less than or equal to 7");
            assertAccepted(CRD.create("spec: {version: 3.6.11, replicas: 7}"));
        }

        @Test
        void nameLeavesRoomForTheClientService() {
            String longest = "a".repeat(EtcdOperatorApi.MAX_CLUSTER_NAME);
            assertAccepted(CRD.create("metadata: {name: " + longest + "}\n" + PLAIN));
            assertRejected(
                    CRD.create("metadata: {name: " + longest + "b}\n" + PLAIN),
                    "",
                    "metadata.name must be at most 56 characters");
        }

        @Test
        void pausingAMemoryClusterIsRefused() {
            assertRejected(
                    CRD.create(MEMORY + "  replicas: 0\n"), "spec", "replicas cannot be 0 with storage.medium Memory");
            assertAccepted(CRD.create(MEMORY + "  replicas: 1\n"));
            assertAccepted(CRD.create(PLAIN + "  replicas: 0\n"));
        }

        @Test
        void memoryClusterNeedsANonZeroSize() {
            assertRejected(
                    CRD.create("spec: {version: 3.6.11, storage: {size: '0', medium: Memory}}"),
                    "spec",
                    "storage.size must be greater than zero");
            assertRejected(
                    CRD.create("spec: {version: 3.6.11, storage: {size: 0Mi, medium: Memory}}"),
                    "spec",
                    "storage.size must be greater than zero");
            assertRejected(
                    CRD.create("spec: {version: 3.6.11, storage: {size: 0, medium: Memory}}"),
                    "spec",
                    "storage.size must be greater than zero");
            assertAccepted(CRD.create(MEMORY));
            assertAccepted(CRD.create("spec: {version: 3.6.11, storage: {size: 0}}"));
        }

        @Test
        void authNeedsClientTls() {
            assertRejected(CRD.create(PLAIN + """
            auth:
              enabled: true
              rootCredentialsSecretRef: {name: etcd-root}
          """), "spec", "auth.enabled requires tls.client");
            assertRejected(CRD.create("""
          spec:
            version: 3.6.11
            tls:
              peer:
                secretRef: {name: etcd-peer}
            auth:
              enabled: true
              rootCredentialsSecretRef: {name: etcd-root}
          """), "spec", "auth.enabled requires tls.client");
        }

        @Test
        void authNeedsRootCredentials() {
            assertRejected(CRD.create(CLIENT_TLS + """
            auth:
              enabled: true
          """), "spec", "auth.enabled requires auth.rootCredentialsSecretRef");
        }

        @Test
        void authWithClientTlsAndCredentialsIsAccepted() {
            assertAccepted(CRD.create(CLIENT_TLS + """
            auth:
              enabled: true
              rootCredentialsSecretRef: {name: etcd-root}
          """));
            assertAccepted(CRD.create(PLAIN + """
            auth:
              enabled: false
          """));
        }

        @Test
        void authWithOperatorIssuedTlsIsAccepted() {
            assertAccepted(CRD.create(PLAIN + """
            tls:
              operatorIssued: {}
            auth:
              enabled: true
              rootCredentialsSecretRef: {name: etcd-root}
          """));
        }

        @Test
        void clientTlsTakesExactlyOneSource() {
            assertRejected(CRD.create(PLAIN + """
            tls:
              client: {}
          """), "spec.tls.client", "exactly one of serverSecretRef or certManager");
            assertRejected(CRD.create(PLAIN + """
            tls:
              client:
                serverSecretRef: {name: etcd-server}
                certManager:
                  serverIssuerRef: {name: ca}
          """), "spec.tls.client", "exactly one of serverSecretRef or certManager");
            assertAccepted(CRD.create(PLAIN + """
            tls:
              client:
                certManager:
                  serverIssuerRef: {name: ca, kind: ClusterIssuer}
                  operatorClientIssuerRef: {name: ca}
          """));
        }

        @Test
        void operatorClientSecretCannotBeMixedWithCertManager() {
            assertRejected(
                    CRD.create(PLAIN + """
            tls:
              client:
                operatorClientSecretRef: {name: operator-client}
                certManager:
                  serverIssuerRef: {name: ca}
          """),
                    "spec.tls.client",
                    "operatorClientSecretRef cannot be combined with certManager");
            assertAccepted(CRD.create(PLAIN + """
            tls:
              client:
                serverSecretRef: {name: etcd-server}
                operatorClientSecretRef: {name: operator-client}
          """));
        }

        @Test
        void issuerRefNeedsANameAndAKnownKind() {
            assertRejected(
                    CRD.create(PLAIN + """
            tls:
              peer:
                certManager:
                  issuerRef: {name: ''}
          """), "spec.tls.peer.certManager.issuerRef.name", "at least 1 characters");
            assertRejected(CRD.create(PLAIN + """
            tls:
              peer:
                certManager:
                  issuerRef: {name: ca, kind: Vault}
          """), "spec.tls.peer.certManager.issuerRef.kind", "unsupported value");
            assertThat(CRD.defaulted(PLAIN + """
            tls:
              peer:
                certManager:
                  issuerRef: {name: ca}
          """).toString()).contains("issuerRef={name=ca, kind=Issuer}");
        }

        @Test
        void peerTlsTakesExactlyOneSource() {
            assertRejected(CRD.create(PLAIN + """
            tls:
              peer: {}
          """), "spec.tls.peer", "exactly one of secretRef or certManager");
            assertRejected(CRD.create(PLAIN + """
            tls:
              peer:
                secretRef: {name: etcd-peer}
                certManager:
                  issuerRef: {name: ca}
          """), "spec.tls.peer", "exactly one of secretRef or certManager");
            assertAccepted(CRD.create(PLAIN + """
            tls:
              peer:
                secretRef: {name: etcd-peer}
          """));
        }

        @Test
        void operatorIssuedAloneIsAcceptedAndDefaulted() {
            String issued = PLAIN + """
            tls:
              operatorIssued: {}
          """;

            assertAccepted(CRD.create(issued));
            assertThat(CRD.defaulted(issued).toString())
                    .contains("operatorIssued={caDuration=43800h, certificateDuration=2160h}");
        }

        @Test
        void operatorIssuedIsRefusedWithClientTls() {
            assertRejected(
                    CRD.create(PLAIN + """
            tls:
              operatorIssued: {certificateDuration: 720h}
              client:
                serverSecretRef: {name: etcd-server}
          """), "spec.tls", "operatorIssued cannot be combined with client or peer");
        }

        @Test
        void operatorIssuedIsRefusedWithPeerTls() {
            assertRejected(
                    CRD.create(PLAIN + """
            tls:
              operatorIssued: {}
              peer:
                certManager:
                  issuerRef: {name: ca}
          """), "spec.tls", "operatorIssued cannot be combined with client or peer");
        }

        @Test
        void restoreIsRefusedOnMemoryStorage() {
            assertRejected(
                    CRD.create(MEMORY + """
            bootstrap:
              restore:
                source:
                  pvc: {claimName: backups, subPath: nightly/etcd.db}
          """), "spec", "bootstrap.restore cannot be used with storage.medium Memory");
            assertAccepted(CRD.create(PLAIN + """
            bootstrap:
              restore:
                source:
                  pvc: {claimName: backups, subPath: nightly/etcd.db}
          """));
        }

        @Test
        void restoreSourceIsExactlyOneLocation() {
            assertRejected(CRD.create(PLAIN + """
            bootstrap:
              restore:
                source: {}
          """), "spec.bootstrap.restore.source", "exactly one of s3 or pvc");
            assertRejected(CRD.create(PLAIN + """
            bootstrap:
              restore:
                source:
                  pvc: {claimName: backups, subPath: etcd.db}
                  s3:
                    endpoint: https://s3.example.com
                    bucket: backups
                    key: etcd.db
                    credentialsSecretRef: {name: s3}
          """), "spec.bootstrap.restore.source", "exactly one of s3 or pvc");
        }

        @Test
        void restoreFromS3NeedsTheExactKey() {
            String s3WithoutKey = PLAIN + """
            bootstrap:
              restore:
                source:
                  s3:
                    endpoint: https://s3.example.com
                    bucket: backups
                    credentialsSecretRef: {name: s3}
          """;
            assertRejected(CRD.create(s3WithoutKey), "spec.bootstrap.restore", "source.s3.key must be the exact key");
            assertRejected(
                    CRD.create(s3WithoutKey + "          key: ''\n"),
                    "spec.bootstrap.restore",
                    "source.s3.key must be the exact key");
            assertAccepted(CRD.create(s3WithoutKey + "          key: nightly/etcd.db\n"));
        }

        @Test
        void existingNeedsClientUrlsAndExcludesRestore() {
            assertAccepted(CRD.create(MEMORY + """
            bootstrap:
              existing:
                clientUrls: [http://etcd-0.etcd.kube-system.svc:2379, https://10.0.0.5:2379]
          """));
            assertRejected(
                    CRD.create(PLAIN + """
            bootstrap:
              existing:
                clientUrls: []
          """), "spec.bootstrap.existing", "at least one http:// or https:// client URL");
            assertRejected(
                    CRD.create(PLAIN + """
            bootstrap:
              existing:
                clientUrls: [etcd-0:2379]
          """), "spec.bootstrap.existing", "at least one http:// or https:// client URL");
            assertRejected(CRD.create(PLAIN + """
            bootstrap:
              existing:
                clientUrls: [http://etcd-0:2379]
              restore:
                source:
                  pvc: {claimName: backups, subPath: nightly/etcd.db}
          """), "spec.bootstrap", "restore or existing, not both");
        }

        @Test
        void restoreFromPvcNeedsTheExactFile() {
            assertRejected(
                    CRD.create(PLAIN + """
            bootstrap:
              restore:
                source:
                  pvc: {claimName: backups}
          """), "spec.bootstrap.restore", "source.pvc.subPath must be the exact path");
            assertRejected(
                    CRD.create(PLAIN + """
            bootstrap:
              restore:
                source:
                  pvc: {claimName: backups, subPath: ''}
          """), "spec.bootstrap.restore", "source.pvc.subPath must be the exact path");
        }

        @Test
        void rulesWaitForAWellTypedObject() {
            String pausedMemory = MEMORY + "  replicas: 0\n";

            // a value outside an enum, a wrong type or a missing required field: the server runs no rule
            assertRejected(
                    CRD.create(pausedMemory + "  options: {autoCompactionMode: hourly}\n"),
                    "spec.options.autoCompactionMode",
                    "unsupported value");
            assertRejected(
                    CRD.create(pausedMemory + "  options: {snapshotCount: many}\n"),
                    "spec.options.snapshotCount",
                    "wrong type");
            // a pattern or a bound does not stop the rules
            assertRejectedAmong(
                    CRD.create(pausedMemory.replace("3.6.11", "v3.6.11")),
                    "spec",
                    "replicas cannot be 0 with storage.medium Memory");
            assertRejectedAmong(
                    CRD.create(pausedMemory + "  options: {snapshotCount: 0}\n"),
                    "spec",
                    "replicas cannot be 0 with storage.medium Memory");
        }

        @Test
        void etcdOptionsAreChecked() {
            assertAccepted(CRD.create(PLAIN + """
            options:
              quotaBackendBytes: 8589934592
              autoCompactionMode: periodic
              autoCompactionRetention: 1h30m
              snapshotCount: 10000
          """));
            assertAccepted(
                    CRD.create(PLAIN + "  options: {autoCompactionMode: revision, autoCompactionRetention: '100'}\n"));
            assertRejected(
                    CRD.create(PLAIN + "  options: {autoCompactionRetention: 1d}\n"),
                    "spec.options.autoCompactionRetention",
                    "must match");
            assertRejected(
                    CRD.create(PLAIN + "  options: {autoCompactionMode: hourly}\n"),
                    "spec.options.autoCompactionMode",
                    "unsupported value");
            assertRejected(
                    CRD.create(PLAIN + "  options: {snapshotCount: 0}\n"),
                    "spec.options.snapshotCount",
                    "greater than or equal to 1");
            assertRejected(
                    CRD.create(PLAIN + "  options: {quotaBackendBytes: -1}\n"),
                    "spec.options.quotaBackendBytes",
                    "greater than or equal to 0");
        }
    }

    @Nested
    class OnUpdate {

        @Test
        void scalingAndVersionChangesAreAccepted() {
            assertAccepted(CRD.update(PLAIN, PLAIN + "  replicas: 5\n"));
            assertAccepted(CRD.update(PLAIN + "  replicas: 3\n", PLAIN + "  replicas: 0\n"));
            assertAccepted(CRD.update(PLAIN, "spec: {version: 3.6.12}"));
        }

        @Test
        void storageCanGrowButNotShrink() {
            String twoGi = "spec: {version: 3.6.11, storage: {size: 2Gi}}";

            assertRejected(CRD.update(twoGi, PLAIN), "spec.storage.size", "storage.size cannot be decreased");
            assertRejected(
                    CRD.update(twoGi, "spec: {version: 3.6.11, storage: {size: 2047Mi}}"),
                    "spec.storage.size",
                    "storage.size cannot be decreased");
            assertAccepted(CRD.update(PLAIN, twoGi));
            assertAccepted(CRD.update(twoGi, "spec: {version: 3.6.11, storage: {size: 2048Mi}}"));
            assertAccepted(CRD.update(twoGi, "spec: {version: 3.6.11, storage: {size: 2147483648}}"));
        }

        @Test
        void mediumIsImmutable() {
            assertRejected(
                    CRD.update(PLAIN, "spec: {version: 3.6.11, storage: {size: 1Gi, medium: Memory}}"),
                    "spec.storage.medium",
                    "storage.medium is immutable");
            assertRejected(
                    CRD.update(MEMORY, "spec: {version: 3.6.11, storage: {size: 256Mi}}"),
                    "spec.storage.medium",
                    "storage.medium is immutable");
            assertAccepted(CRD.update(MEMORY, MEMORY));
        }

        @Test
        void storageClassNameCannotBeAddedRemovedOrChanged() {
            String fast = "spec: {version: 3.6.11, storage: {size: 1Gi, storageClassName: fast}}";
            String slow = "spec: {version: 3.6.11, storage: {size: 1Gi, storageClassName: slow}}";

            assertRejected(CRD.update(PLAIN, fast), "spec", "storage.storageClassName cannot be added or removed");
            assertRejected(CRD.update(fast, PLAIN), "spec", "storage.storageClassName cannot be added or removed");
            assertRejected(CRD.update(fast, slow), "spec", "storage.storageClassName is immutable");
            assertAccepted(CRD.update(fast, fast));
        }

        @Test
        void tlsCannotBeAddedRemovedOrChanged() {
            String otherSecret = CLIENT_TLS.replace("etcd-server", "etcd-server-2");

            assertRejected(CRD.update(PLAIN, CLIENT_TLS), "spec", "tls cannot be added to or removed from");
            assertRejected(CRD.update(CLIENT_TLS, PLAIN), "spec", "tls cannot be added to or removed from");
            assertRejected(CRD.update(CLIENT_TLS, otherSecret), "spec", "tls is immutable");
            assertAccepted(CRD.update(CLIENT_TLS, CLIENT_TLS));
        }

        @Test
        void authCannotBeAddedRemovedOrToggled() {
            String enabled = CLIENT_TLS + """
            auth:
              enabled: true
              rootCredentialsSecretRef: {name: etcd-root}
          """;
            String disabled = enabled.replace("enabled: true", "enabled: false");

            assertRejected(CRD.update(CLIENT_TLS, enabled), "spec", "auth cannot be added to or removed from");
            assertRejected(CRD.update(enabled, CLIENT_TLS), "spec", "auth cannot be added to or removed from");
            assertRejected(CRD.update(enabled, disabled), "spec", "auth is immutable");
            assertRejected(CRD.update(disabled, enabled), "spec", "auth is immutable");
            assertAccepted(CRD.update(enabled, enabled));
        }

        @Test
        void bootstrapCannotBeAddedRemovedOrChanged() {
            String restore = PLAIN + """
            bootstrap:
              restore:
                source:
                  pvc: {claimName: backups, subPath: nightly/etcd.db}
          """;
            String otherFile = restore.replace("nightly", "weekly");

            assertRejected(CRD.update(PLAIN, restore), "spec", "bootstrap cannot be added to or removed from");
            assertRejected(CRD.update(restore, PLAIN), "spec", "bootstrap cannot be added to or removed from");
            assertRejected(CRD.update(restore, otherFile), "spec", "bootstrap is immutable");
            assertAccepted(CRD.update(restore, restore));
        }

        @Test
        void transitionRulesDoNotRunOnCreate() {
            // The same objects that fail as updates above are fine when there is no stored object to compare with.
            assertAccepted(CRD.create(CLIENT_TLS));
            assertAccepted(CRD.create("spec: {version: 3.6.11, storage: {size: 1Gi, storageClassName: fast}}"));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(Map<String, Object> object) {
        return (Map<String, Object>) object.get("spec");
    }
}
