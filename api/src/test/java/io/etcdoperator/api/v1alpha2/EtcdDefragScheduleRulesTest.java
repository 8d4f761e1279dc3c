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

/** Our scheduled defragmentation: the snapshot schedule's cron and cluster rules, EtcdDefrag's rule rules. */
class EtcdDefragScheduleRulesTest {

    private static final CrdValidator CRD = CrdValidator.forGenerated("etcddefragschedules");

    private static final String WEEKLY = """
      spec:
        clusterRef: {name: my-etcd}
        schedule: '0 3 * * 0'
      """;

    @AfterAll
    static void everyRuleWasSeenAcceptingAndRejecting() {
        assertThat(CRD.rulesNotSeenBothWays()).isEmpty();
    }

    @Test
    void aWeeklyScheduleWithARuleAndHistoryIsAccepted() {
        assertAccepted(CRD.create(WEEKLY));
        assertAccepted(CRD.create(WEEKLY + "  rule: {quotaUsageAbove: 90%, minReclaim: 300Mi}\n"
                + "  successfulRunsHistoryLimit: 5\n  suspend: true\n  timeZone: Europe/Berlin\n"));
    }

    @Test
    void theScheduleTheClusterTheHistoryAndTheRuleAreChecked() {
        assertRejected(CRD.create(WEEKLY.replace("'0 3 * * 0'", "'weekly'")), "spec.schedule", "must match");
        assertRejected(
                CRD.create(WEEKLY.replace("{name: my-etcd}", "{name: ''}")),
                "spec",
                "clusterRef.name must name an EtcdCluster");
        assertRejected(
                CRD.create(WEEKLY + "  successfulRunsHistoryLimit: 0\n"),
                "spec.successfulRunsHistoryLimit",
                "greater than or equal to 1");
        assertRejected(
                CRD.create(WEEKLY + "  rule: {all: true, freeSpaceAbove: 1Gi}\n"),
                "spec.rule",
                "all cannot be combined");
    }

    @Test
    void theRuleFollowsEtcdDefragsRules() {
        assertAccepted(
                CRD.create(WEEKLY + "  rule: {freeSpaceAbove: 100Mi, quotaUsageAbove: 80%, minReclaim: 100Mi}\n"));
        assertRejected(
                CRD.create(WEEKLY + "  rule: {freeSpaceAbove: 100Mi, quotaUsageAbove: 80%, minReclaim: 101Mi}\n"),
                "spec.rule",
                "minReclaim cannot exceed freeSpaceAbove");
        assertRejected(
                CRD.create(WEEKLY + "  rule: {minReclaim: 32Mi}\n"),
                "spec.rule",
                "minReclaim only applies together with quotaUsageAbove");
        assertRejected(
                CRD.create(WEEKLY + "  rule: {freeSpaceAbove: '0'}\n"),
                "spec.rule.freeSpaceAbove",
                "freeSpaceAbove must be greater than zero");
        assertRejected(
                CRD.create(WEEKLY + "  rule: {quotaUsageAbove: 80%, minReclaim: 0Mi}\n"),
                "spec.rule.minReclaim",
                "minReclaim must be greater than zero");
    }

    @Test
    void theKindIsNamespacedWithStatusAndUsefulColumns() {
        CrdSchema crd = CrdSchema.generated("etcddefragschedules");
        assertThat(crd.version()).containsEntry("subresources", Map.of("status", Map.of()));
        assertThat(((List<?>) crd.version().get("additionalPrinterColumns"))
                        .stream().map(c -> String.valueOf(((Map<?, ?>) c).get("name"))))
                .contains("Cluster", "Schedule", "Suspend", "Age");
    }
}
