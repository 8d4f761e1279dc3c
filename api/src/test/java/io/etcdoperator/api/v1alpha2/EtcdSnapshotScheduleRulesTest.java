package io.etcdoperator.api.v1alpha2;

import static io.etcdoperator.api.crd.Admission.assertAccepted;
import static io.etcdoperator.api.crd.Admission.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.crd.CrdSchema;
import io.etcdoperator.api.crd.CrdValidator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EtcdSnapshotScheduleRulesTest {

    private static final CrdValidator CRD = CrdValidator.forGenerated("etcdsnapshotschedules");

    private static final String NIGHTLY = """
      spec:
        clusterRef: {name: my-etcd}
        schedule: '30 2 * * *'
        destination:
          s3:
            endpoint: https://s3.example.com
            bucket: backups
            key: my-etcd/
            credentialsSecretRef: {name: s3-credentials}
      """;

    @AfterAll
    static void everyRuleWasSeenAcceptingAndRejecting() {
        assertThat(CRD.rulesNotSeenBothWays()).isEmpty();
    }

    @Test
    void aNightlyScheduleWithRetentionIsAccepted() {
        assertAccepted(CRD.create(NIGHTLY));
        assertAccepted(CRD.create(NIGHTLY + "  retention: {keepLast: 7, maxAge: 30d}\n  suspend: true\n"
                + "  timeZone: Europe/Berlin\n"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"@hourly", "@daily", "*/15 * * * *", "0 0 1,15 * MON-FRI", "0 3 * * 0"})
    void cronExpressionsAndMacrosAreAccepted(String schedule) {
        assertAccepted(CRD.create(NIGHTLY.replace("'30 2 * * *'", "'" + schedule + "'")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "daily", "@every 5m", "* * * *", "0 0 * * * *"})
    void somethingElseIsNotASchedule(String schedule) {
        assertRejected(
                CRD.create(NIGHTLY.replace("'30 2 * * *'", "'" + schedule + "'")), "spec.schedule", "must match");
    }

    @Test
    void retentionNeedsACountOrAnAge() {
        assertRejected(CRD.create(NIGHTLY + "  retention: {}\n"), "spec.retention", "set keepLast, maxAge or both");
        assertRejected(
                CRD.create(NIGHTLY + "  retention: {keepLast: 0}\n"),
                "spec.retention.keepLast",
                "greater than or equal to 1");
        assertRejected(CRD.create(NIGHTLY + "  retention: {maxAge: 1w}\n"), "spec.retention.maxAge", "must match");
        assertAccepted(CRD.create(NIGHTLY + "  retention: {maxAge: 1d12h}\n"));
    }

    @Test
    void destinationAndClusterFollowTheSnapshotRules() {
        assertRejected(
                CRD.create(NIGHTLY + "    pvc: {claimName: backups}\n"),
                "spec.destination",
                "exactly one of s3 or pvc");
        assertRejected(
                CRD.create(NIGHTLY.replace("{name: my-etcd}", "{name: ''}")),
                "spec",
                "clusterRef.name must name an EtcdCluster");
        assertRejected(
                CRD.create("spec: {clusterRef: {name: my-etcd}, destination: {pvc: {claimName: b}}}"),
                "spec.schedule",
                "is required");
    }

    @Test
    void theKindIsNamespacedWithStatusAndUsefulColumns() {
        CrdSchema crd = CrdSchema.generated("etcdsnapshotschedules");
        Map<?, ?> spec = (Map<?, ?>) crd.crd().get("spec");
        assertThat(spec.get("scope")).isEqualTo("Namespaced");
        assertThat(((Map<?, ?>) spec.get("names")).get("kind")).isEqualTo("EtcdSnapshotSchedule");
        assertThat(crd.version())
                .containsEntry("name", "v1alpha2")
                .containsEntry("subresources", Map.of("status", Map.of()));
        assertThat(((List<?>) crd.version().get("additionalPrinterColumns"))
                        .stream().map(c -> String.valueOf(((Map<?, ?>) c).get("name"))))
                .contains("Cluster", "Schedule", "Suspend", "Last Success", "Age");
    }
}
